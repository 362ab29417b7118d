#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// SPEC §5: the SVGs of huge counts keep every number below 10⁶, so Chromium draws them with
/// the same ink as rsvg-convert (which draws in double precision), within the cross-backend
/// tolerance of `CrossBackendTests`.
@Suite(.serialized) struct BrowserTests {
    static let rsvg = installedProgram("rsvg-convert")

    @Test(
        .enabled(
            if: canRun(chromiumProgram) && canRun(rsvg),
            "needs chromium and rsvg-convert (make test-deps installs them)"),
        .readByAnOutsideProgram,
        arguments: [UInt64(10_000_000_000_000), 10_000_000_000_000_000, UInt64(Int64.max), 1_234_567_890_123])
    func chromiumDrawsHugeCountsLikeRsvg(count: UInt64) throws {
        let rsvg = try #require(Self.rsvg, "rsvg-convert is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer {
            if ProcessInfo.processInfo.environment["KEEP"] == nil {
                try? FileManager.default.removeItem(at: directory)
            } else {
                print(directory.path)
            }
        }
        // An opaque background, so the browser's page colour cannot matter.
        let settings = RenderSettings(appearance: Appearance(background: try Background(parsing: "#ffffff")))
        let svg = try Renderer.render(try #require(TallyCount(exactly: count)), as: .svg, settings)
        let (_, viewport, _) = try Renderer.layout(try #require(TallyCount(exactly: count)), .svg, settings)
        try Data(svg).write(to: directory.appendingPathComponent("t.svg"))
        // Inline, so the screenshot never races an image load.
        let page =
            "<!doctype html><html><head><style>html,body{margin:0;padding:0;background:#fff}svg{display:block}</style></head><body>"
            + String(decoding: svg, as: UTF8.self) + "</body></html>"
        // A window larger than the image (small headless windows clip the page), cropped to it.
        let screenshot = try chromiumScreenshot(
            page, named: "page", in: directory, window: (Int(viewport.width) + 400, Int(viewport.height) + 400))
        let converted = try runProgram(
            rsvg,
            [directory.appendingPathComponent("t.svg").path, "-o", directory.appendingPathComponent("rsvg.png").path])
        #expect(converted.status == 0, "rsvg-convert: \(converted.stderr)")
        let (width, height) = (Int(viewport.width), Int(viewport.height))
        try #require(
            screenshot.width >= width && screenshot.height >= height, "the screenshot is smaller than the image")
        let browser = PNGImage(
            width: width, height: height,
            pixels: (0..<height).flatMap { row in
                screenshot.pixels[(row * screenshot.width)..<(row * screenshot.width + width)]
            })
        let reference = try #require(
            PNGImage(png: Array(try Data(contentsOf: directory.appendingPathComponent("rsvg.png")))))
        let difference = try #require(
            browser.difference(from: reference, channelThreshold: 48, reach: 1),
            "sizes differ: \(browser.width)×\(browser.height) and \(reference.width)×\(reference.height)")
        if ProcessInfo.processInfo.environment["TALLY_SHOW_METRICS"] != nil {
            print("count \(count): mean \(difference.mean), differing \(difference.differingShare)")
        }
        #expect(
            difference.mean <= Self.maximumMean && difference.differingShare <= Self.maximumDifferingShare,
            "count \(count): mean \(difference.mean), differing \(difference.differingShare)")
    }

    /// Chromium anti-aliases with Skia, not Cairo: edges differ by a few levels (measured mean
    /// 0.25–1.22), and by more than 48 only where the two cover the round ends and joins of a
    /// caption's 1 px pens on pixel centres differently (about 100 pixels, each next to one that
    /// agrees: the comparison reaches one pixel). A blank, partly drawn or moved image fails.
    static let maximumMean = 2.0
    static let maximumDifferingShare = 0.0005
}
#endif
