#if Cairo
import CCairo
import Foundation
import Testing
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
@testable import TallyCairo

@Suite struct CairoPDFTests {
    @Test func pdfsAreOnePageWithTheTitle() throws {
        let pdf = try render(TallyCount(exactly: 9999)!, as: .pdf, RenderSettings(side: .longer(512)))
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-"))
        #expect(text.contains("/Title (9,999 tally marks)"))
        #expect(
            text.components(separatedBy: "/Type /Page\n").count + text.components(separatedBy: "/Type /Page ").count - 2
                >= 1)
        // The block is taller than wide (its rows 43 apart, its squares 28): 512 px tall and
        // narrower, its count written under ten rows that leave no room for a lens (SPEC §2).
        #expect(text.contains("/MediaBox [ 0 0 378 512 ]"))
    }

    @Test func datesComeFromSourceDateEpochElseAreFixed() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.pdf").path
        #expect(try TallyProcess.run(["render", "42", "-o", path]).status == 0)
        let fixed = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try TallyProcess.run(["render", "42", "-o", path]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == fixed)
        #expect(String(decoding: fixed, as: UTF8.self).contains("19700101000000"))
        #expect(
            try TallyProcess.run(["render", "42", "-o", path], environment: ["SOURCE_DATE_EPOCH": "1700000000"]).status
                == 0)
        #expect(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).contains("20231114221320")
        )
        let bad = try TallyProcess.run(["render", "42", "-o", path], environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        expectOneLineError(bad, status: 64, mentioning: "SOURCE_DATE_EPOCH")
    }

    @Test func civilDates() {
        #expect(PDFDate.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(PDFDate.iso8601(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(PDFDate.iso8601(1_700_000_000) == "2023-11-14T22:13:20Z")
    }
}
#endif
