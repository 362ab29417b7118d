import Foundation
import TallyEncoding
import TallyGeometry
import TallyTestSupport
import Testing

/// The JSON scene is a contract. `TallyScene(json:)` reads back every snapshot scene so that
/// encoding it again gives the same text, and `Schemas/scene.schema.json` accepts every scene tally
/// writes, checked by a real validator (Python's jsonschema).
@Suite struct SceneJSONTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let snapshotScenes: [URL] = {
        let folder = root.appendingPathComponent("Snapshots/json")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    @Test func everySnapshotSceneRoundTrips() throws {
        try #require(Self.snapshotScenes.count >= 26, "the snapshot scenes are missing")
        for url in Self.snapshotScenes {
            let text = try String(contentsOf: url, encoding: .utf8)
            let scene = try TallyScene(json: text)
            #expect(SceneJSON.encode(scene) == text, "\(url.lastPathComponent)")
        }
    }

    /// Any scene tally makes, ink, captions and progress marks included, reads back to itself.
    @Test(arguments: [UInt64(0), 7, 25, 137, 10_999, 1_234_567, 9_223_372_036_854_775_807])
    func scenesOfEveryKindRoundTrip(_ value: UInt64) throws {
        for arguments in [[], ["--style", "ink", "--seed", "3"], ["--size", "64"], ["--caption", "--size", "300"]] {
            let run = try TallyProcess.run(["render", String(value), "-f", "json"] + arguments)
            let scene = try TallyScene(json: run.text)
            // A viewport, when there is one, is not part of the scene: compare without it.
            let withoutViewport =
                run.text.split(separator: "\n").filter { !$0.hasPrefix("  \"viewport\"") }.joined(separator: "\n")
                + "\n"
            #expect(SceneJSON.encode(scene) == withoutViewport, "\(value) \(arguments)")
        }
    }

    /// The default bytes: every snapshot scene is the scene of the standard proportions, so
    /// the default value draws what the constants it replaced drew (SPEC §2, §5).
    @Test func everySnapshotSceneIsTheStandardProportionsScene() throws {
        try #require(Self.snapshotScenes.count >= 26, "the snapshot scenes are missing")
        for url in Self.snapshotScenes {
            let text = try String(contentsOf: url, encoding: .utf8)
            let count = try TallyScene(json: text).count
            #expect(
                SceneJSON.encode(TallyScene(count: count, proportions: .standard)) == text, "\(url.lastPathComponent)")
        }
    }

    /// SPEC §5: a scene drawn with other proportions than SPEC §2's reads back as drawn, its
    /// frame as written. These proportions (`ProportionsRenderTests.other`) are the standard's
    /// doubled, so every number of a picture to 10,000 is written exactly, as the standard's
    /// are, and reads back equal, mark for mark; above, to three decimals.
    @Test func aSceneOfOtherProportionsRoundTrips() throws {
        let proportions = ProportionsRenderTests.other
        for value in [UInt64(0), 7, 25, 137, 1_234, 9_999, 10_000, 12_345, 1_234_567] {
            for goal in [nil, TallyCount(exactly: 9_000)] where goal.map({ $0.value >= value }) ?? true {
                let count = try #require(TallyCount(exactly: value))
                let scene = TallyScene(count: count, goal: goal, proportions: proportions)
                #expect(scene.canvas != Canvas(level: scene.canvas.level), "\(value)")
                let text = SceneJSON.encode(scene)
                let read = try TallyScene(json: text)
                #expect(abs(read.canvas.width - scene.canvas.width) < 5e-4, "\(value)")
                #expect(abs(read.canvas.height - scene.canvas.height) < 5e-4, "\(value)")
                #expect(SceneJSON.encode(read) == text, "\(value)")
                if value <= 10_000 { #expect(read.canvas == scene.canvas, "\(value)") }
                if value < 10_000 && goal == nil { #expect(read == scene, "\(value)") }
            }
        }
    }

    @Test func notAScene() {
        let cases: [(String, String)] = [
            ("{}", "not a tally scene"),
            (#"{"count": -1, "frame": {"unit": 25, "width": 30, "height": 30}, "marks": []}"#, "not a tally scene"),
            (
                #"{"count": 26, "frame": {"unit": 25, "width": 30, "height": 30}, "marks": []}"#,
                "does not hold|not a unit that holds"
            ),
            (#"{"count": 5, "frame": {"unit": 25, "width": 0, "height": 30}, "marks": []}"#, "is not a size"),
            (
                #"{"count": 5, "frame": {"unit": 25, "width": 30, "height": 30}, "marks": [{"kind": "blob", "unit": 1, "color": "c1", "width": 1, "segments": []}]}"#,
                "unknown kind"
            ),
            (
                #"{"count": 5, "frame": {"unit": 25, "width": 30, "height": 30}, "marks": [{"kind": "stroke", "unit": 1, "color": "c9", "width": 1, "segments": []}]}"#,
                "unknown colour"
            ),
            (
                #"{"count": 5, "frame": {"unit": 25, "width": 30, "height": 30}, "marks": [{"kind": "stroke", "unit": 1, "color": "c1", "width": 1, "segments": [[1, 2, 3]]}]}"#,
                "needs 4"
            ),
        ]
        for (json, needle) in cases {
            do {
                _ = try TallyScene(json: json)
                Issue.record("accepted: \(json)")
            } catch {
                #expect(
                    needle.split(separator: "|").contains { error.description.contains($0) }, "\(error.description)")
            }
        }
    }

    static let python = installedProgram("python3")
    static let hasValidator: Bool = {
        guard let python else { return false }
        return (try? runProgram(python, ["-c", "import jsonschema"]).status) == 0
    }()

    /// Every snapshot scene, and scenes with ink bows, captions, progress marks and a viewport,
    /// validate against the schema; a scene with a wrong field does not.
    @Test(
        .enabled(if: hasValidator || isCI, "needs Python's jsonschema (make test-deps installs it)"),
        .readByAnOutsideProgram)
    func scenesValidateAgainstTheSchema() throws {
        let python = try #require(Self.python, "python3 is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = Self.snapshotScenes.map(\.path)
        for (index, arguments) in [
            ["10999", "--size", "64"], ["99999", "--caption"], ["99", "--style", "ink"], ["1234567", "--size", "1024"],
        ].enumerated() {
            let path = directory.appendingPathComponent("extra-\(index).json").path
            #expect(try TallyProcess.run(["render"] + arguments + ["-f", "json", "-o", path]).status == 0)
            files.append(path)
        }
        let broken = directory.appendingPathComponent("broken.json")
        try Data(
            #"{"count": 5, "frame": {"unit": 25, "width": 30, "height": 30}, "marks": [{"kind": "progress", "unit": 25, "color": "c1", "width": 1, "segments": []}]}"#
                .utf8
        ).write(to: broken)
        try Self.validate(python, schema: "Schemas/scene.schema.json", files + [broken.path])

    }

    /// Runs Python's jsonschema over files: each must validate against the schema, except those
    /// named `broken.json`, which must not.
    static func validate(_ python: URL, schema: String, _ files: [String]) throws {
        let script = """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema)
            failed = 0
            for path in sys.argv[2:]:
                errors = list(validator.iter_errors(json.load(open(path))))
                expected_broken = path.endswith("broken.json")
                if bool(errors) != expected_broken:
                    failed += 1
                    print(path, [e.message for e in errors][:3])
            print("checked", len(sys.argv) - 2)
            sys.exit(1 if failed else 0)
            """
        let run = try runProgram(python, ["-c", script, root.appendingPathComponent(schema).path] + files)
        #expect(run.status == 0, "\(run.text) \(run.stderr)")
        #expect(run.text.contains("checked \(files.count)"))
    }

    /// `describe --json` validates against `Schemas/description.schema.json`, a huge percent
    /// included (exact, past 2⁶⁴); a description with a fractional percent does not.
    @Test(
        .enabled(if: hasValidator || isCI, "needs Python's jsonschema (make test-deps installs it)"),
        .readByAnOutsideProgram)
    func descriptionsValidateAgainstTheirSchema() throws {
        let python = try #require(Self.python, "python3 is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, arguments) in [["0"], ["1234"], ["6200", "--of", "10000"], ["9223372036854775807", "--of", "1"]]
            .enumerated()
        {
            let run = try TallyProcess.run(["describe"] + arguments + ["--json"])
            #expect(run.status == 0)
            let path = directory.appendingPathComponent("describe-\(index).json")
            try run.stdout.write(to: path)
            files.append(path.path)
        }
        let huge = try TallyProcess.run(["describe", "9223372036854775807", "--of", "1", "--json"])
        #expect(huge.text.contains("\"percent\": 922337203685477580700,"), "exact, not rounded")
        let broken = directory.appendingPathComponent("broken.json")
        try Data(
            #"{"count": 5, "of": 10, "percent": 50.5, "title": "", "description": "", "frame": {"unit": 25, "name": "x"}, "structure": []}"#
                .utf8
        ).write(to: broken)
        try Self.validate(python, schema: "Schemas/description.schema.json", files + [broken.path])
    }
}
