import Foundation
import TallyRender
import TallyTestSupport
import Testing

/// What depends on tally's Cairo trait, tried in a build without it (`make test-without-cairo`,
/// which runs this suite only): SVG and JSON are still drawn, by the library and the command
/// line alike, and PNG, PDF and a PNG badge are refused in one line with exit 64, naming the
/// format and what the build can write. In the default build the suite has nothing to try.
@Suite(.enabled(if: !cairoIsBuiltIn, "tries a build without the Cairo trait (make test-without-cairo)"))
struct WithoutCairoTests {
    @Test func theLibraryDrawsSVGAndJSONAndRefusesTheRest() throws {
        let svg = try Renderer.render(137, as: .svg, RenderSettings())
        #expect(String(decoding: svg, as: UTF8.self).hasPrefix("<svg"))
        let json = try Renderer.render(137, as: .json, RenderSettings())
        #expect(String(decoding: json, as: UTF8.self).hasPrefix("{"))
        for format: OutputFormat in [.png, .pdf] {
            #expect(throws: RenderError.formatUnavailable(format)) {
                try Renderer.render(137, as: format, RenderSettings())
            }
        }
    }

    @Test(arguments: [
        ["render", "5", "-f", "png"], ["render", "5", "-f", "pdf"], ["badge", "5", "-f", "png"],
        ["gallery", "1", "2", "-f", "png", "-o", "-"],
    ])
    func theCommandLineRefusesWhatTheBuildCannotWrite(_ arguments: [String]) throws {
        let format = arguments[arguments.index(after: try #require(arguments.firstIndex(of: "-f")))]
        expectOneLineError(
            try TallyProcess.run(arguments), status: 64,
            mentioning: "format '\(format)' is not available in this build of tally, made without its Cairo trait")
    }

    @Test func theCommandLineStillDrawsSVG() throws {
        let run = try TallyProcess.run(["render", "137", "-f", "svg"])
        #expect(run.status == 0 && run.text.hasPrefix("<svg"), "\(run.stderr)")
    }
}
