import Foundation
import TallyEncoding
import TallyGeometry
import TallyTestSupport
import Testing

@Suite struct RenderJSONTests {
    private func marks(_ run: TallyRun) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        return try #require(object["marks"] as? [[String: Any]])
    }

    private func histogram(_ marks: [[String: Any]]) -> [String: Int] {
        marks.reduce(into: [:]) { $0["\($1["kind"]!)(\($1["unit"]!))", default: 0] += 1 }
    }

    @Test func renders137AsTheSpecSays() throws {
        let run = try TallyProcess.run(["render", "137", "-f", "json"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(
            histogram(try marks(run)) == [
                "stroke(1)": 30, "slash(5)": 7, "cross(25)": 1, "cross(100)": 1, "box(100)": 1,
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(object["count"] as? Int == 137)
        let frame = try #require(object["frame"] as? [String: Any])
        #expect(frame["width"] != nil && frame["height"] != nil)
    }

    @Test func theJSONIsTheSceneAndOnlyTheScene() throws {
        // The command prints exactly what the encoder makes of the core's scene.
        for count: UInt64 in [0, 1, 25, 9999, 10_000, 123_456_789] {
            let run = try TallyProcess.run(["render", String(count), "-f", "json"])
            #expect(run.text == SceneJSON.encode(TallyScene(count: TallyCount(exactly: count)!)))
        }
    }

    @Test func everyMarkHasTheSpecFields() throws {
        let marks = try marks(try TallyProcess.run(["render", "10001", "-f", "json"]))
        let kinds = Set(MarkKind.allCases.map(\.rawValue))
        let colors = Set(ColorToken.allCases.map(\.rawValue))
        for mark in marks {
            #expect(kinds.contains(mark["kind"] as? String ?? ""))
            #expect(colors.contains(mark["color"] as? String ?? ""))
            #expect(mark["unit"] is Int)
            let segments = try #require(mark["segments"] as? [[Double]])
            #expect(!segments.isEmpty && segments.allSatisfy { $0.count == 4 })
        }
    }

    @Test func theLargestCountRenders() throws {
        let run = try TallyProcess.run(["render", "9223372036854775807", "-f", "json"])
        #expect(run.status == 0)
        let marks = try marks(run)
        #expect(marks.count > 0 && marks.count < 2000)
    }

    @Test func aSizeTurnsOnTheLevelOfDetail() throws {
        let full = try marks(try TallyProcess.run(["render", "9999", "-f", "json"]))
        let small = try marks(try TallyProcess.run(["render", "9999", "-f", "json", "--size", "64"]))
        let forced = try marks(
            try TallyProcess.run(["render", "9999", "-f", "json", "--size", "64", "--detail", "full"]))
        #expect(small.count < full.count)
        #expect(forced.count == full.count)
    }

    /// SPEC §5: with a size, the scene carries the viewport (pixels and the layout box shown,
    /// margin included), so another renderer can reproduce the image; without one it does not.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func aSizeAddsTheViewport() throws {
        let plain = try #require(
            try JSONSerialization.jsonObject(with: try TallyProcess.run(["render", "137", "-f", "json"]).stdout)
                as? [String: Any])
        #expect(plain["viewport"] == nil)
        let run = try TallyProcess.run(["render", "137", "-f", "json", "--size", "256"])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let viewport = try #require(object["viewport"] as? [String: Any])
        let pixels = try #require(viewport["pixels"] as? [String: Double])
        let box = try #require(viewport["box"] as? [String: Double])
        let (width, height) = (try #require(pixels["width"]), try #require(pixels["height"]))
        let (x, y, boxWidth, boxHeight) = (
            try #require(box["x"]), try #require(box["y"]), try #require(box["width"]), try #require(box["height"])
        )
        // 137 shows two squares of its row, 183 × 77.5 layout units, in a 256 px wide image with a
        // margin on every side.
        #expect(width == 256 && height > 100 && height < 140)
        #expect(x < 0 && y < 0 && x + boxWidth > 140 && y + boxHeight > 66)
        #expect(abs(boxWidth / boxHeight - width / height) < 0.02)
        // The PNG of the same arguments has that size.
        let png = try TallyProcess.run(["render", "137", "-f", "png", "--size", "256"]).stdout
        #expect(png.count > 24 && png[16..<24].elementsEqual([0, 0, 1, 0, 0, 0, 0, UInt8(height)]))
    }

    /// A partial unit too small for its detail is a progress mark, a light tint (SPEC §2: 3% to
    /// 12%), and its edge, which carries the contrast (0.55): both fills with their opacity.
    @Test func progressMarksAreFillsWithAnOpacity() throws {
        let marks = try marks(try TallyProcess.run(["render", "10001", "-f", "json", "--size", "64"]))
        let progress = marks.filter { $0["kind"] as? String == "progress" }
        #expect(progress.count == 1)
        let mark = try #require(progress.first)
        let tint = try #require(mark["opacity"] as? Double)
        #expect(mark["color"] as? String == "c1" && mark["width"] as? Double == 0 && tint >= 0.03 && tint <= 0.12)
        #expect(mark["unit"] as? Int == 10_000)
        let edge = try #require(marks.first { $0["kind"] as? String == "edge" })
        #expect(edge["color"] as? String == "c1" && edge["width"] as? Double == 0 && edge["opacity"] as? Double == 0.55)
        #expect(edge["unit"] as? Int == 10_000)
        // No mark of the full scene's detail inside the partial block: only the progress mark.
        #expect(marks.filter { ($0["unit"] as? Int ?? 0) < 10_000 && $0["kind"] as? String != "caption" }.isEmpty)
    }

    /// `--seed` reaches the ink style from the command line.
    @Test func theSeedChangesTheInk() throws {
        let one = try TallyProcess.run(["render", "99", "-f", "svg", "--style", "ink", "--seed", "1"])
        let again = try TallyProcess.run(["render", "99", "-f", "svg", "--style", "ink", "--seed", "1"])
        let two = try TallyProcess.run(["render", "99", "-f", "svg", "--style", "ink", "--seed", "2"])
        #expect(one.status == 0 && one.stdout == again.stdout)
        #expect(one.stdout != two.stdout)
        let batch = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: batch) }
        #expect(
            try TallyProcess.run(["batch", "99", "--style", "ink", "--seed", "2", "--out-dir", batch.path]).status == 0)
        #expect(try Data(contentsOf: batch.appendingPathComponent("tally-99.svg")) == two.stdout)
    }

    /// SPEC §3's colour tokens, written out here: every one reaches the output in both themes.
    /// The boxes' c3 is darker (light) and brighter (dark) than the seed's, for SPEC §2's 3:1
    /// contrast in a deliberate order.
    @Test(arguments: [
        ("light", ["#fafaf7", "#262629", "#59595e", "#77777c", "#d94033"]),
        ("dark", ["#1c1c1f", "#ebebed", "#c4c4c6", "#9a9a9c", "#f2594d"]),
    ])
    func theColourTokensAreTheSpecs(_ theme: String, _ colours: [String]) throws {
        // 125 has strokes (c1), slashes (accent), crosses (c2) and a box (c3); paper behind.
        let run = try TallyProcess.run([
            "render", "125", "-f", "svg", "--theme", theme, "--background", "paper", "--size", "1024",
        ])
        let text = run.text.lowercased()
        for (token, colour) in zip(["paper", "c1", "c2", "c3", "accent"], colours) {
            #expect(text.contains(colour), "\(theme) \(token) should be \(colour)")
        }
        // The 1,000 line is c1 and the 10,000 diagonal c2 (SPEC §2, colours by kind).
        let block = try TallyProcess.run(["render", "10000", "-f", "svg", "--theme", theme, "--size", "2048"]).text
            .lowercased()
        #expect(
            block.contains(".line{stroke:\(colours[1])") && block.contains(".diagonal{stroke:\(colours[2])"), "\(theme)"
        )
    }

    /// SPEC §5: a PNG carries its title and description as text chunks, in these words.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func pngTextChunksCarryTheWords() throws {
        let png = try TallyProcess.run(["render", "137", "-f", "png"]).stdout
        let text = String(decoding: png, as: UTF8.self)
        #expect(text.contains("tEXtTitle\u{0}137 tally marks"))
        #expect(text.contains("tEXtDescription\u{0}1 hundred-block, 1 twenty-five-unit, 2 gates and 2 strokes"))
    }

    @Test func theFormatFollowsTheExtension() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.json").path
        let run = try TallyProcess.run(["render", "42", "-o", path])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == (try TallyProcess.run(["render", "42", "-f", "json"])).stdout)
        // Only the file itself: no temporary file left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["t.json"])
    }

    @Test func sameArgumentsSameBytesInEveryLocale() throws {
        let plain = try TallyProcess.run(["render", "1234567", "-f", "json"])
        let german = try TallyProcess.run(
            ["render", "1234567", "-f", "json"], environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"])
        let again = try TallyProcess.run(["render", "1234567", "-f", "json"])
        #expect(plain.stdout == german.stdout)
        #expect(plain.stdout == again.stdout)
    }
}
