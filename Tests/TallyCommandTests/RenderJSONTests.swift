import Foundation
import Testing
import TallyTestSupport
import TallyEncoding
import TallyGeometry

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
        #expect(histogram(try marks(run)) == ["stroke(1)": 30, "slash(5)": 7, "cross(25)": 1, "cross(100)": 1, "box(100)": 1])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(object["count"] as? Int == 137)
        let frame = try #require(object["frame"] as? [String: Any])
        #expect(frame["width"] != nil && frame["height"] != nil)
    }

    @Test func theJSONIsTheSceneAndOnlyTheScene() throws {
        // The command prints exactly what the encoder makes of the core's scene.
        for count: UInt64 in [0, 1, 25, 9999, 10_000, 123_456_789] {
            let run = try TallyProcess.run(["render", String(count), "-f", "json"])
            #expect(run.text == SceneJSON.encode(Scene(count: TallyCount(exactly: count)!)))
        }
    }

    @Test func everyMarkHasTheSpecFields() throws {
        let marks = try marks(try TallyProcess.run(["render", "10001", "-f", "json"]))
        let kinds = Set(MarkKind.allCases.map(\.rawValue)), colors = Set(ColorToken.allCases.map(\.rawValue))
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
        let forced = try marks(try TallyProcess.run(["render", "9999", "-f", "json", "--size", "64", "--detail", "full"]))
        #expect(small.count < full.count)
        #expect(forced.count == full.count)
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
        let german = try TallyProcess.run(["render", "1234567", "-f", "json"], environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"])
        let again = try TallyProcess.run(["render", "1234567", "-f", "json"])
        #expect(plain.stdout == german.stdout)
        #expect(plain.stdout == again.stdout)
    }
}
