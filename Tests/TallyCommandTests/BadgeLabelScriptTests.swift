import Foundation
import TallyTestSupport
import Testing

/// A badge's label in Cyrillic, Greek and Latin Extended draws, and one in a script the face
/// lacks is refused in one line naming the character (SPEC §6, §7), through the built `tally`.
@Suite struct BadgeLabelScriptTests {
    @Test(.processTimeLimit(minutes: 2))
    func cyrillicAndGreekLabelsDraw() throws {
        let latin = try TallyProcess.run(["badge", "5", "--label", "downloads"])
        #expect(latin.status == 0, "\(latin.stderr)")
        for label in ["загрузки", "λ", "Ελληνικά", "Łódź"] {
            let run = try TallyProcess.run(["badge", "5", "--label", label])
            #expect(run.status == 0, "\(label): \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(label)")
            #expect(run.text.hasPrefix("<svg"), "\(label)")
            #expect(run.text.contains("<title>\(label): 5</title>"), "\(label)")
            // The label's letters are paths: its own drawing, not the plain badge's.
            let paths = run.text.components(separatedBy: "<path").count - 1
            #expect(paths > 0 && run.stdout != latin.stdout, "\(label)")
        }
    }

    @Test(.processTimeLimit(minutes: 2))
    func aLabelInAScriptTheFaceLacksIsRefusedNamingTheCharacter() throws {
        let run = try TallyProcess.run(["badge", "5", "--label", "下载"])
        expectOneLineError(
            run, status: 64, mentioning: "--label '下载' has '下' (U+4E0B), which the badge's font does not have")
        #expect(run.stderr.contains("Cyrillic"), "\(run.stderr)")
    }
}
