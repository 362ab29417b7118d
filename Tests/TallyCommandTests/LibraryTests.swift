import Foundation
import Tally
import TallySVG
import TallyTestSupport
import Testing

/// The library in one import, labelled, with no force-unwrap.
@Suite struct LibraryTests {
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func oneImportDrawsEveryFormat() throws {
        let svg = try TallyMarks.svg(137)
        #expect(svg.hasPrefix("<svg") && svg.contains("data-count=\"137\""))
        // The same bytes as the command line with its defaults.
        #expect(Array(svg.utf8) == Array(try TallyProcess.run(["render", "137"]).stdout))
        let png = try TallyMarks.png(1_234, size: 512, theme: .dark)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let pdf = try TallyMarks.pdf(99)
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        let scene = TallyMarks.scene(137)
        #expect(scene.count == 137 && !scene.marks.isEmpty)
        #expect(try TallyScene(json: try TallyMarks.json(137)).marks.count == scene.marks.count)
        #expect(try TallyMarks.json(137, size: 256).contains("\"viewport\""))
    }

    @Test func countsAreLiterals() {
        let count: TallyCount = 9_223_372_036_854_775_807
        #expect(count == .maximum)
        #expect(TallyScene(count: 25).marks.count == 26)
    }

    /// MarkAnimation is a setting of its own: off by default, and only the marks new since a count
    /// draw in (the "+1" moment).
    @Test func animationIsAValue() throws {
        #expect(RenderSettings().animation == .none)
        let plusOne = try TallyMarks.svg(25, animation: .since(24))
        // The 25th tally mark is the last gate's slash, and with it the cross closes the unit:
        // those two draw in, and no stroke drawn before.
        #expect(plusOne.components(separatedBy: "animation-delay:").count == 3)
        #expect(plusOne.contains("class=\"slash a\"") && plusOne.contains("class=\"cross a\""))
        #expect(!plusOne.contains("class=\"stroke a\""))
        #expect(!(try TallyMarks.svg(25)).contains("animation-delay"))
        #expect(throws: RenderError.animationSinceBeyondCount(since: 26, count: 25)) {
            try TallyMarks.svg(25, animation: .since(26))
        }
    }

    /// An SVG's animated marks are a value: positions past the scene's end are ignored, never a trap.
    @Test func animatedMarksAreAValue() throws {
        let layout = try Renderer.layout(25, .svg, RenderSettings())
        for animated: AnimatedMarks in [.none, .all, .only([]), .only([0, 3, layout.scene.marks.count + 5])] {
            let svg = String(
                decoding: SVGRenderer.render(
                    layout.scene, viewport: layout.viewport, options: SVGOptions(animated: animated)), as: UTF8.self)
            #expect(svg.hasSuffix("</svg>\n"))
            let drawn = svg.components(separatedBy: "class=\"").dropFirst().filter { $0.contains(" a\"") }.count
            switch animated {
            case .none: #expect(drawn == 0)
            case .all: #expect(drawn == layout.scene.marks.count)
            case .only(let positions): #expect(drawn == positions.filter { $0 < layout.scene.marks.count }.count)
            }
        }
    }

    /// The library's errors say what is wrong in words, as a Swift user prints them, each case
    /// with the values it carries.
    @Test func errorsDescribeThemselves() throws {
        let cases: [(any Error & CustomStringConvertible, String)] = [
            (
                TallyCount.ParseError.negative,
                "the text is negative; a count is a whole number from 0 to 9,223,372,036,854,775,807"
            ),
            (
                TallyCount.ParseError.empty,
                "the text is not a number; a count is a whole number from 0 to 9,223,372,036,854,775,807"
            ),
            (RenderError.countBeyondFrame(1_234, .thousandRow), "count 1,234 does not fit in a thousand-row of 1,000"),
            (
                RenderError.animationSinceBeyondCount(since: 30, count: 25),
                "animation from 30 is past the count 25; it must be from 0 to the count"
            ),
            (RenderError.animationNeedsSVG(.png), "animation is for SVG output; the format is png"),
            (
                RenderError.viewport(.sideTooLarge(20_000)),
                "a side of 20,000 px is too large; images are at most 16,384 px a side and 64 megapixels"
            ),
            (
                RenderError.formatUnavailable(.pdf),
                "format 'pdf' is not available in this build of tally, made without its Cairo trait; svg and json are"
            ),
            (RenderError.backend(BackendFailure(format: .png, reason: "cairo: out of memory")), "cairo: out of memory"),
        ]
        for (error, words) in cases { #expect(error.description == words) }
        // What the library throws is what it describes.
        do {
            _ = try Renderer.render(25, as: .svg, RenderSettings(side: .longer(20_000)))
            Issue.record("a 20,000 px side was drawn")
        } catch {
            #expect(error.description.hasPrefix("a side of 20,000 px is too large"))
        }
    }
}
