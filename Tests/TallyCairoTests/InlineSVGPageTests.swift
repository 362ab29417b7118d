#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyBadge
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// SPEC §2, "Inline-safe SVG": many images share one HTML page. Chromium draws each image
/// inline beside the others exactly as it draws it inline alone: no image's style rules, dark
/// palette, keyframes or ids reach another.
@Suite(.serialized) struct InlineSVGPageTests {
    /// An image and where it sits on the page, in CSS pixels.
    struct Placed {
        let name: String
        let svg: String
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    /// Images whose style rules differ (pens, palettes, badge plates, a caption's pen,
    /// nested tiles), as one docs page might inline them.
    static func images() throws -> [(name: String, svg: [UInt8])] {
        func tally(_ count: UInt64, _ settings: RenderSettings = RenderSettings()) throws -> [UInt8] {
            try Renderer.render(try #require(TallyCount(exactly: count)), as: .svg, settings)
        }
        func badge(_ theme: Theme) throws -> [UInt8] {
            let badge = try Badge(count: try #require(TallyCount(exactly: 1_234)), label: "downloads")
            return try Renderer.badge(badge, BadgeSettings(appearance: Appearance(theme: theme)))
        }
        func gallery(_ theme: Theme) throws -> [UInt8] {
            try Gallery.render(
                [5, 137].map { TallyCount(exactly: $0)! }, as: .svg,
                RenderSettings(side: .longer(96), appearance: Appearance(theme: theme)))
        }
        return [
            ("render 100", try tally(100)),
            ("render Int64.max", try tally(UInt64(Int64.max))),
            ("render 1234 --theme dark", try tally(1_234, RenderSettings(appearance: Appearance(theme: .dark)))),
            ("render 1234 --caption", try tally(1_234, RenderSettings(caption: true))),
            ("badge --theme dark", try badge(.dark)),
            ("badge --theme light", try badge(.light)),
            ("gallery --theme dark", try gallery(.dark)),
            ("gallery --theme light", try gallery(.light)),
        ]
    }

    /// A number attribute of the root element (`width`, `height`), rounded up to whole pixels.
    static func rootSize(_ svg: String, _ name: String) throws -> Int {
        let tag = try #require(svg.split(separator: ">", maxSplits: 1).first)
        let start = try #require(tag.range(of: " \(name)=\""))
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return Int(try #require(Double(value)).rounded(.up))
    }

    /// A page of the images, each in a div at its place, on an opaque grey.
    static func page(_ placed: [Placed]) -> String {
        "<!doctype html><html><head><meta charset=\"utf-8\"><style>html,body{margin:0;padding:0;background:#808080}"
            + "div{position:absolute;line-height:0}svg{display:block}</style></head><body>\n"
            + placed.map { "<div style=\"left:\($0.x)px;top:\($0.y)px\">\($0.svg)</div>\n" }.joined()
            + "</body></html>\n"
    }

    /// The pixels of an image's place in a screenshot.
    static func crop(_ image: PNGImage, _ placed: Placed) -> PNGImage {
        PNGImage(
            width: placed.width, height: placed.height,
            pixels: (placed.y..<(placed.y + placed.height)).flatMap { row in
                image.pixels[(row * image.width + placed.x)..<(row * image.width + placed.x + placed.width)]
            })
    }

    @Test(
        .enabled(if: canRun(chromiumProgram), "needs chromium (make test-deps installs it)"),
        .processTimeLimit(minutes: 5),
        .readByAnOutsideProgram,
        arguments: [false, true])
    func eachImageLooksTheSameBesideTheOthers(darkScheme: Bool) throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer {
            if ProcessInfo.processInfo.environment["KEEP"] == nil {
                try? FileManager.default.removeItem(at: directory)
            } else {
                print(directory.path)
            }
        }
        // One column, 16 px apart.
        var placed: [Placed] = []
        var top = 16
        for (name, bytes) in try Self.images() {
            let svg = String(decoding: bytes, as: UTF8.self)
            let (width, height) = (try Self.rootSize(svg, "width"), try Self.rootSize(svg, "height"))
            placed.append(Placed(name: name, svg: svg, x: 16, y: top, width: width, height: height))
            top += height + 16
        }
        // Larger than the page: small headless windows clip it.
        let window = (width: (placed.map { $0.x + $0.width }.max() ?? 0) + 200, height: top + 200)
        let together = try chromiumScreenshot(
            Self.page(placed), named: "together", in: directory, window: window, dark: darkScheme)
        try #require(together.width >= window.width - 16 && together.height >= top, "the screenshot is too small")
        for (index, image) in placed.enumerated() {
            let alone = try chromiumScreenshot(
                Self.page([image]), named: "alone-\(index)", in: directory, window: window, dark: darkScheme)
            try #require(alone.width == together.width && alone.height == together.height)
            let expected = Self.crop(alone, image)
            let seen = Self.crop(together, image)
            let difference = try #require(seen.difference(from: expected, channelThreshold: 2))
            if difference.differingPixels > 0,
                let picture = seen.differenceImage(against: expected, channelThreshold: 2)
            {
                try? Data(try picture.pngData()).write(to: directory.appendingPathComponent("difference-\(index).png"))
            }
            // The same renderer drawing the same image at the same place: the same pixels.
            #expect(
                difference.differingPixels == 0,
                "\(image.name), \(darkScheme ? "dark" : "light") scheme: \(difference.differingPixels) of \(difference.pixelCount) pixels differ beside the others (mean \(difference.mean))"
            )
        }
    }
}
#endif
