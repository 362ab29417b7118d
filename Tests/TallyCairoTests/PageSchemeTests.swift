#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// SPEC §2, "Readable on light and dark pages by default", in a browser: the default SVG (auto,
/// transparent) as an `<img>`, whose `prefers-color-scheme` follows the OS and not the page, on
/// white, #0D1117 and black pages with the OS light and dark, and on a page declaring
/// `color-scheme: light dark`. Every pen is 3:1 or more against the page behind it in every
/// pairing. The full palettes of SPEC §3 fail here: a white page on a dark OS showed #EBEBED
/// strokes at 1.19:1, a #0D1117 page on a light OS #262629 strokes at 1.25:1.
@Suite(.serialized, .processTimeLimit(minutes: 3)) struct PageSchemeTests {
    /// A page and the OS scheme Chromium pretends (`preferredColorScheme`: 0 dark, 1 light).
    struct Page: CustomTestStringConvertible, Sendable {
        let name: String
        /// The page's own style for `html, body`.
        let style: String
        let osIsDark: Bool
        /// The page colour the screenshot must show, pinned; nil where the browser picks it
        /// (`color-scheme: light dark` takes the OS's canvas: dark where the OS is dark).
        let background: UInt32?

        var testDescription: String { name }
    }

    static let pages: [Page] = [
        Page(name: "white page, dark OS", style: "background:#fff", osIsDark: true, background: 0xFFFFFF),
        Page(name: "#0d1117 page, light OS", style: "background:#0d1117", osIsDark: false, background: 0x0D1117),
        Page(name: "white page, light OS", style: "background:#fff", osIsDark: false, background: 0xFFFFFF),
        Page(name: "#0d1117 page, dark OS", style: "background:#0d1117", osIsDark: true, background: 0x0D1117),
        Page(name: "black page, light OS", style: "background:#000", osIsDark: false, background: 0x000000),
        Page(
            name: "color-scheme: light dark, dark OS", style: "color-scheme:light dark", osIsDark: true, background: nil
        ),
        Page(
            name: "color-scheme: light dark, light OS", style: "color-scheme:light dark", osIsDark: false,
            background: nil),
    ]

    /// The images and the pens measured in each, at the middle of a solid stretch of pen: the
    /// hundred-block's box (c3, its top side) and cross (c2, where its arms meet); 7's last stroke
    /// (c1, alone: no slash or cross over it) and its slash (accent, drawn over the strokes).
    static let images: [(count: TallyCount, marks: [(name: String, kind: MarkKind, last: Bool)])] = [
        (100, [("box (c3)", .box, false), ("cross (c2)", .cross, false)]),
        (7, [("stroke (c1)", .stroke, true), ("slash (accent)", .slash, false)]),
    ]

    /// WCAG 2.2's relative luminance of an `0x__RRGGBB` pixel, written out here.
    static func luminance(_ pixel: UInt32) -> Double {
        func linear(_ channel: UInt32) -> Double {
            let c = Double(channel & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(pixel >> 16) + 0.7152 * linear(pixel >> 8) + 0.0722 * linear(pixel)
    }

    /// WCAG 2.2's contrast ratio of two pixels.
    static func contrast(_ a: UInt32, _ b: UInt32) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// The images' top-left corners on the page: 20 px in, stacked 20 px apart.
    static let margin = 20

    @Test(
        .enabled(if: canRun(chromiumProgram), "needs chromium (make test-deps installs it)"), .readByAnOutsideProgram,
        arguments: pages)
    func everyPenReadsAgainstThePage(_ page: Page) throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer {
            if ProcessInfo.processInfo.environment["KEEP"] == nil {
                try? FileManager.default.removeItem(at: directory)
            } else {
                print(directory.path)
            }
        }
        // `tally render N -o tN.svg`'s bytes: the library with every setting left to its default.
        var tags = ""
        var points: [(name: String, x: Int, y: Int)] = []
        var top = Self.margin
        var width = 0
        for (index, image) in Self.images.enumerated() {
            let svg = try Renderer.render(image.count, as: .svg, RenderSettings())
            let file = "t\(index).svg"
            try Data(svg).write(to: directory.appendingPathComponent(file))
            let (scene, viewport, _) = try Renderer.layout(image.count, .svg, RenderSettings())
            tags +=
                "<img src=\"\(file)\" width=\"\(Int(viewport.width))\" height=\"\(Int(viewport.height))\""
                + " style=\"position:absolute;left:\(Self.margin)px;top:\(top)px\">"
            for mark in image.marks {
                let marks = scene.marks.filter { $0.kind == mark.kind }
                let segment = try #require((mark.last ? marks.last : marks.first)?.segments.first, "\(mark.name)")
                let x = ((segment.start.x + segment.end.x) / 2 - viewport.visible.minX) * viewport.pixelsPerUnit
                let y = ((segment.start.y + segment.end.y) / 2 - viewport.visible.minY) * viewport.pixelsPerUnit
                points.append(("\(image.count) \(mark.name)", Self.margin + Int(x), top + Int(y)))
            }
            top += Int(viewport.height) + Self.margin
            width = max(width, Int(viewport.width))
        }
        let html =
            "<!doctype html><html><head><style>html,body{margin:0;padding:0;\(page.style)}</style></head><body>"
            + tags + "</body></html>"
        // Larger than the page: small headless windows clip it.
        let screenshot = try chromiumScreenshot(
            html, named: "page", in: directory, window: (width + 400, top + 400), dark: page.osIsDark)
        let background = try #require(screenshot.pixels.first) & 0xFF_FFFF
        if let expected = page.background {
            #expect(background == expected, "\(page.name): the page is #\(String(background, radix: 16))")
        } else {
            // The OS scheme reached the page, so the pairing is the one named.
            #expect(
                (Self.luminance(background) < 0.05) == page.osIsDark, "\(page.name): #\(String(background, radix: 16))")
        }
        for point in points {
            try #require(point.x < screenshot.width && point.y < screenshot.height, "the screenshot is too small")
            let pixel = screenshot.pixels[point.y * screenshot.width + point.x] & 0xFF_FFFF
            let ratio = Self.contrast(pixel, background)
            if ProcessInfo.processInfo.environment["TALLY_SHOW_METRICS"] != nil {
                print(
                    "\(page.name) | \(point.name) #\(String(pixel, radix: 16)) | \((ratio * 100).rounded() / 100):1")
            }
            #expect(
                ratio >= 3,
                "\(page.name): \(point.name) is #\(String(pixel, radix: 16)), \(ratio):1 against #\(String(background, radix: 16))"
            )
        }
    }
}
#endif
