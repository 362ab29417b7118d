#if Cairo
import CCairo
import Foundation
import Testing
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
@testable import TallyCairo

@Suite struct CairoLimitTests {
    @Test func oversizeImagesFailBeforeAnythingIsAllocated() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.png").path
        let run = try TallyProcess.run(["render", "5", "--size", "100000", "-o", path])
        expectOneLineError(run, status: 64, mentioning: "16,384")
        // 16,384 × 16,384 is a side the limit allows but over 64 megapixels.
        let area = try TallyProcess.run(["render", "10000", "--size", "16384", "-o", path])
        expectOneLineError(area, status: 64, mentioning: "megapixels")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(throws: RenderError.self) {
            try Renderer.render(TallyCount(exactly: 5)!, as: .png, RenderSettings(side: .longer(1e9)))
        }
    }

    // `script` gives the child a terminal.
    @Test(.enabled(if: canRun(installedProgram("script")), "needs script(1), from util-linux"))
    func binaryOutputToATerminalIsRefused() throws {
        let script = try #require(installedProgram("script"), "script(1) is missing")
        let run = try runProgram(script, ["-qec", "\(TallyProcess.executable.path) render 5 -f png", "/dev/null"])
        #expect(run.status == 64)
        #expect(run.text.contains("tally: error: will not write PNG to a terminal"))
    }
}
#endif
