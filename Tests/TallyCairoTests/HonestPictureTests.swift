#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// SPEC §2, "Honest at a glance", checked on the pixels a reader sees.
@Suite struct HonestPictureTests {
    private func count(_ value: UInt64) throws -> TallyCount { try #require(TallyCount(exactly: value)) }

    private func png(_ value: UInt64, _ settings: RenderSettings = RenderSettings()) throws -> PNGImage {
        return try #require(PNGImage(png: try Renderer.render(try count(value), as: .png, settings)))
    }

    // MARK: Colour arithmetic (WCAG 2.2), written out here rather than read from the code.

    private static func linear(_ channel: Double) -> Double {
        let c = channel / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    private static func luminance(_ rgb: (Double, Double, Double)) -> Double {
        0.2126 * linear(rgb.0) + 0.7152 * linear(rgb.1) + 0.0722 * linear(rgb.2)
    }

    static func contrast(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    private static func rgb(_ hex: UInt32) -> (Double, Double, Double) {
        (Double(hex >> 16 & 0xFF), Double(hex >> 8 & 0xFF), Double(hex & 0xFF))
    }

    /// A colour laid over another at an opacity, as Cairo and browsers blend (in sRGB values).
    private static func over(_ top: (Double, Double, Double), _ bottom: (Double, Double, Double), _ alpha: Double) -> (
        Double, Double, Double
    ) {
        (
            alpha * top.0 + (1 - alpha) * bottom.0, alpha * top.1 + (1 - alpha) * bottom.1,
            alpha * top.2 + (1 - alpha) * bottom.2
        )
    }

    /// An opaque pixel of a decoded PNG as RGB.
    private static func rgb(pixel: UInt32) -> (Double, Double, Double) {
        (Double(pixel >> 16 & 0xFF), Double(pixel >> 8 & 0xFF), Double(pixel & 0xFF))
    }

    // MARK: Contrast

    /// SPEC §3's palette as this project draws it, and SPEC §2's opacities, pinned as literals.
    static let palettes:
        [(name: String, theme: Theme, paper: UInt32, c1: UInt32, c2: UInt32, c3: UInt32, accent: UInt32)] = [
            ("light", .light, 0xFAFAF7, 0x262629, 0x59595E, 0x77777C, 0xD94033),
            ("dark", .dark, 0x1C1C1F, 0xEBEBED, 0xC4C4C6, 0x9A9A9C, 0xF2594D),
        ]
    static let washOpacity = 0.55

    /// Every mark kind as drawn (after its opacity, over its paper), with its contrast ratio
    /// pinned to two decimals: 3:1 at least (WCAG 2.2, 1.4.11), in a deliberate order: strokes,
    /// lines and captions, then crosses and diagonals, then boxes, then wash edges.
    static let expected: [String: [String: Double]] = [
        "light": [
            "stroke": 14.43, "line": 14.43, "cross": 6.66, "diagonal": 6.66, "caption": 14.43, "slash": 4.24,
            "box": 4.26, "progress": 3.51,
        ],
        "dark": [
            "stroke": 14.28, "line": 14.28, "cross": 9.76, "diagonal": 9.76, "caption": 14.28, "slash": 5.11,
            "box": 6.05, "progress": 5.20,
        ],
    ]

    @Test(arguments: [0, 1])
    func everyMarkIsAtLeastThreeToOneAgainstItsPaper(_ index: Int) throws {
        let palette = Self.palettes[index]
        // The code's palette and opacities are the ones pinned here.
        let drawn = Appearance(theme: palette.theme).palette
        #expect(
            drawn.paper == RGBA(hex: palette.paper) && drawn.c1 == RGBA(hex: palette.c1)
                && drawn.c2 == RGBA(hex: palette.c2)
                && drawn.c3 == RGBA(hex: palette.c3) && drawn.accent == RGBA(hex: palette.accent), "\(palette.name)")
        // Caps are opaque, over their detail or alone (SPEC §2, "Tone follows level").
        for count: TallyCount in [25, 100, 1_000, 10_000] {
            for mark in TallyScene(count: count).marks where !mark.kind.isFilled {
                #expect(mark.opacity == 1, "\(count): a \(mark.kind) at \(mark.opacity)")
            }
        }
        // A wash is a tint (c1 at 3% to 12%, SPEC §2) whose edge carries the contrast: measured
        // at its edge.
        let washMarks = try Renderer.layout(10_001, .png, RenderSettings(side: .longer(64))).scene.marks
        #expect(try #require(washMarks.first { $0.kind == .edge }).opacity == Self.washOpacity)
        let tint = try #require(washMarks.first { $0.kind == .progress }).opacity
        #expect(tint >= 0.03 && tint <= 0.12, "a tint at \(tint)")

        let paper = Self.rgb(palette.paper)
        let colours: [String: (Double, Double, Double)] = [
            "stroke": Self.rgb(palette.c1), "line": Self.rgb(palette.c1), "cross": Self.rgb(palette.c2),
            "diagonal": Self.rgb(palette.c2), "caption": Self.rgb(palette.c1), "slash": Self.rgb(palette.accent),
            "box": Self.rgb(palette.c3),
            "progress": Self.over(Self.rgb(palette.c1), paper, Self.washOpacity),
        ]
        let expected = try #require(Self.expected[palette.name])
        for (kind, colour) in colours {
            let ratio = Self.contrast(colour, paper)
            #expect(ratio >= 3, "\(palette.name) \(kind): \(ratio):1")
            #expect(abs(ratio - (try #require(expected[kind]))) < 0.01, "\(palette.name) \(kind): \(ratio):1")
        }
        // The marks that carry large counts are never the faintest: only the wash is fainter
        // than the boxes, and the boxes are fainter than the crosses and lines.
        let ratios = expected
        #expect(
            ratios["box"]! > ratios["progress"]! && ratios["cross"]! > ratios["box"]!
                && ratios["line"]! > ratios["cross"]!)
        let large = ["box", "line", "cross", "diagonal"].map { ratios[$0]! }
        #expect(ratios["progress"]! <= large.min()!)
    }

    /// SPEC §2, "Tone follows level", on rendered pixels in both themes: a 10,000-block's
    /// diagonal stands out from the boxes it crosses by 1.5:1 or more (it was 1.03:1 when caps
    /// were translucent), and a 25-unit's cross differs from its slashes in lightness (1.5:1 or
    /// more) and pen, not only in hue.
    @Test(arguments: [0, 1])
    func toneFollowsLevel(_ index: Int) throws {
        let palette = Self.palettes[index]
        let settings = RenderSettings(
            side: .longer(512), appearance: Appearance(theme: palette.theme, background: .paper))
        func pixel(_ count: TallyCount, at point: (TallyScene, Viewport) throws -> Point) throws -> (
            Double, Double, Double
        ) {
            let (scene, viewport, _) = try Renderer.layout(count, .png, settings)
            let image = try #require(PNGImage(png: try Renderer.render(count, as: .png, settings)))
            let at = try point(scene, viewport)
            let x = Int(((at.x - viewport.visible.minX) * viewport.pixelsPerUnit).rounded(.down))
            let y = Int(((at.y - viewport.visible.minY) * viewport.pixelsPerUnit).rounded(.down))
            try #require(x >= 0 && y >= 0 && x < image.width && y < image.height)
            return Self.rgb(pixel: image.pixels[y * image.width + x])
        }
        func middle(of kind: MarkKind, in scene: TallyScene) throws -> Point {
            let segment = try #require(scene.marks.first { $0.kind == kind }?.segments.first)
            return Point((segment.start.x + segment.end.x) / 2, (segment.start.y + segment.end.y) / 2)
        }
        // The diagonal's middle lies between the fifth and sixth rows, on paper; a box's top side.
        let diagonal = try pixel(10_000) { scene, _ in try middle(of: .diagonal, in: scene) }
        let box = try pixel(10_000) { scene, _ in try middle(of: .box, in: scene) }
        let paper = Self.rgb(palette.paper)
        #expect(Self.contrast(diagonal, paper) >= 3 && Self.contrast(box, paper) >= 3)
        let between = Self.contrast(diagonal, box)
        #expect(between >= 1.5, "\(palette.name): the diagonal against its boxes is \(between):1")

        let scene = TallyScene(count: 25)
        let slash = try #require(scene.marks.first { $0.kind == .slash })
        let cross = try #require(scene.marks.first { $0.kind == .cross })
        let drawn = Appearance(theme: palette.theme).palette
        func channels(_ colour: RGBA) -> (Double, Double, Double) {
            (Double(colour.red), Double(colour.green), Double(colour.blue))
        }
        let lightness = Self.contrast(channels(drawn[slash.color]), channels(drawn[cross.color]))
        #expect(lightness >= 1.5, "\(palette.name): the slash against the 25-X is \(lightness):1")
        #expect(cross.width > slash.width && cross.opacity == 1)
    }

    /// The same contrast, measured on rendered PNG pixels: each mark kind, drawn wide on its
    /// paper at the opacity the scene gives it, has a solid pixel within 0.05 of the ratio above.
    @Test(arguments: [0, 1])
    func renderedPixelsHaveThatContrast(_ index: Int) throws {
        let palette = Self.palettes[index]
        let expected = try #require(Self.expected[palette.name])
        let cases: [(String, MarkKind, ColorToken, Double)] = [
            ("stroke", .stroke, .c1, 1), ("slash", .slash, .accent, 1), ("cross", .cross, .c2, 1),
            ("box", .box, .c3, 1),
            ("line", .line, .c1, 1), ("diagonal", .diagonal, .c2, 1), ("caption", .caption, .c1, 1),
            ("progress", .edge, .c1, Self.washOpacity),
        ]
        let settings = RenderSettings(
            side: .longer(128), appearance: Appearance(theme: palette.theme, background: .paper))
        for (name, kind, token, opacity) in cases {
            // One wide mark across a twenty-five-unit's cell: a solid middle, whatever the pen.
            let segments =
                kind.isFilled
                ? [Segment(5, 5, 25, 5), Segment(25, 5, 25, 25), Segment(25, 25, 5, 25), Segment(5, 25, 5, 5)]
                : [Segment(5, 15, 25, 15)]
            let mark = Mark(kind: kind, unit: 1, color: token, width: 8, segments: segments, opacity: opacity)
            let scene = TallyScene(count: 25, canvas: Canvas(level: .twentyFive), marks: [mark])
            let image = try #require(PNGImage(png: try Renderer.render(scene: scene, as: .png, settings)))
            let middle = image.pixels[(image.height / 2) * image.width + image.width / 2]
            let ratio = Self.contrast(Self.rgb(pixel: middle), Self.rgb(palette.paper))
            #expect(
                abs(ratio - (try #require(expected[name]))) < 0.05 && ratio >= 3,
                "\(palette.name) \(name): the drawn pixel is \(ratio):1 against the paper")
        }
    }

    // MARK: Magnitude and progress

    /// How many pixels differ by a clear contrast (2:1 or more) between two default images, laid
    /// on one canvas of the paper colour from their top left corners.
    private func clearlyDiffering(_ a: PNGImage, _ b: PNGImage) -> Int {
        let paper: UInt32 = 0xFFFA_FAF7
        let width = max(a.width, b.width)
        let height = max(a.height, b.height)
        func at(_ image: PNGImage, _ x: Int, _ y: Int) -> UInt32 {
            x < image.width && y < image.height ? image.pixels[y * image.width + x] : paper
        }
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let (p, q) = (at(a, x, y), at(b, x, y))
                if p != q && Self.contrast(Self.rgb(pixel: p), Self.rgb(pixel: q)) >= 2 { differing += 1 }
            }
        }
        return differing
    }

    /// Counts with different numbers of digits never give the same picture: 10ᵏ against 10ᵏ⁺²
    /// (the shapes repeat every two levels), 99,999 against Int64.max, 1,000 against 100,000,
    /// at 64, 128 and 256 px with the default options. More than a few pixels differ clearly
    /// (at 64 px, 10¹⁶ and 10¹⁸ are told apart by one 7 px digit of their short forms).
    @Test(arguments: [64.0, 128, 256])
    func countsOfDifferentMagnitudesLookDifferent(_ size: Double) throws {
        var pairs: [(UInt64, UInt64)] = [(99_999, 9_223_372_036_854_775_807), (1_000, 100_000)]
        var power: UInt64 = 100
        for _ in 2...16 {
            pairs.append((power, power * 100))
            power *= 10
        }
        let settings = RenderSettings(side: .longer(size))
        for (small, large) in pairs {
            let differing = clearlyDiffering(try png(small, settings), try png(large, settings))
            #expect(differing > 5, "\(small) and \(large) at \(size) px: \(differing) pixels differ clearly")
        }
    }

    /// Progress is never rounded up: the pairs differ at the sizes it names.
    @Test func progressPairsDiffer() throws {
        for (a, b, size) in [(UInt64(10_999), UInt64(11_000), 64.0), (104, 105, 64), (1_249, 1_250, 128)] {
            let settings = RenderSettings(side: .longer(size))
            let differing = clearlyDiffering(try png(a, settings), try png(b, settings))
            #expect(differing >= 1, "\(a) and \(b) at \(size) px look the same")
        }
    }

    // MARK: Defaults and small sizes

    /// SPEC §2, "Readable on light and dark pages by default": each file of a `--theme auto`
    /// PNG pair (light and dark, transparent) keeps every mark's body at 3:1 or more on #ffffff
    /// and on #0d1117, since many hosts show only the `<img>` file, on either scheme. A body
    /// pixel is one a mark covers whole (alpha 1); edges blend into the page as any edge does.
    @Test(arguments: [Theme.light, .dark])
    func eachFileOfAnAutoPairReadsOnEitherPage(_ theme: Theme) throws {
        let settings = RenderSettings(appearance: Appearance(theme: theme, background: .none))
        for value: UInt64 in [137, 2_524, 99_999] {
            let image = try png(value, settings)
            var body = 0
            for pixel in image.pixels where pixel >> 24 == 0xFF {
                body += 1
                for page: UInt32 in [0xFFFFFF, 0x0D1117] {
                    let ratio = Self.contrast(Self.rgb(pixel: pixel), Self.rgb(page))
                    #expect(ratio >= 3, "\(value), \(theme) file: a mark at \(ratio):1 on #\(String(page, radix: 16))")
                    if ratio < 3 { return }
                }
            }
            #expect(body > 100, "\(value), \(theme) file: \(body) body pixels")
        }
    }

    /// A default PNG is opaque at its corners, on its paper, so it reads on a dark page.
    @Test func aDefaultPNGIsOpaque() throws {
        for value: UInt64 in [0, 25, 137, 99_999] {
            let image = try png(value)
            for (x, y) in [(0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)] {
                #expect(image.pixels[y * image.width + x] == 0xFFFA_FAF7, "\(value): corner (\(x), \(y))")
            }
        }
    }

    /// 999 at 64 px is ten separate units (nine boxes and the wash of the tenth): counted as
    /// the groups of ink pixels touching one another, diagonals included (without the caption
    /// its small squares bring, whose digits are groups of their own, nor the lens). No group
    /// reaches across two units (each narrower than a tenth of the image), and there are at
    /// least ten: the tenth square's dotted outline may leave a corner dot apart on its wash.
    @Test func siblingsNeverMerge() throws {
        let image = try png(999, RenderSettings(side: .longer(64), caption: false, inset: false))
        var seen = [Bool](repeating: false, count: image.pixels.count)
        let paper = Self.rgb(0xFAFAF7)
        func inked(_ index: Int) -> Bool { Self.contrast(Self.rgb(pixel: image.pixels[index]), paper) >= 1.5 }
        var groups = 0
        var widest = 0
        for start in image.pixels.indices where !seen[start] && inked(start) {
            groups += 1
            var stack = [start]
            seen[start] = true
            var (left, right) = (image.width, 0)
            defer { widest = max(widest, right - left + 1) }
            while let index = stack.popLast() {
                let (x, y) = (index % image.width, index / image.width)
                (left, right) = (min(left, x), max(right, x))
                for dy in -1...1 {
                    for dx in -1...1 {
                        let (nx, ny) = (x + dx, y + dy)
                        guard nx >= 0, ny >= 0, nx < image.width, ny < image.height else { continue }
                        let next = ny * image.width + nx
                        if !seen[next] && inked(next) {
                            seen[next] = true
                            stack.append(next)
                        }
                    }
                }
            }
        }
        #expect(groups >= 10 && groups <= 11, "999 at 64 px: \(groups) groups of ink")
        #expect(widest < image.width / 10, "999 at 64 px: a group of ink \(widest) px wide spans two units")
    }
}
#endif
