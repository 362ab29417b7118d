#if Cairo
import Foundation
import Testing
@testable import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// SPEC §5: a PNG is written in the smallest lossless colour type that holds it (indexed, with
/// `tRNS` where some alpha is below 255, at 1, 2, 4 or 8 bits; RGBA above 256 colours), and its
/// pixels decoded are the ones Cairo drew, whichever type is written.
@Suite struct IndexedPNGTests {
    static let python = installedProgram("python3")
    static let decoder = TallyProcess.packageRoot.appendingPathComponent("Tests/Support/png-pixels")

    /// The IHDR colour type and bit depth of a PNG, and whether it has a tRNS chunk.
    private func kind(_ png: [UInt8]) throws -> (colour: UInt8, depth: UInt8, transparency: Bool, palette: Int) {
        try #require(png.count > 33)
        var at = 8
        var transparency = false
        var palette = 0
        while at + 8 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[at + 4..<at + 8], as: UTF8.self)
            if type == "tRNS" { transparency = true }
            if type == "PLTE" { palette = length / 3 }
            at += 12 + length
        }
        return (png[25], png[24], transparency, palette)
    }

    /// Decoded by `Tests/Support/png-pixels` (Python's zlib and the PNG filter rules), compared
    /// with the premultiplied pixels Cairo drew, premultiplied again here.
    private func expectDecodesToWhatCairoDrew(_ count: TallyCount, _ settings: RenderSettings, _ name: String) throws {
        let python = try #require(Self.python, "python3 is missing")
        let layout = try Renderer.layout(count, .png, settings)
        let options = CairoOptions(
            appearance: settings.appearance(in: .png), title: "t", description: "d", documentDate: 0)
        let drawn = try CairoRenderer.drawnPixels(layout.scene, viewport: layout.viewport, options: options)
        let png = try Renderer.render(layout, as: .png, settings)
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("t.png")
        try Data(png).write(to: file)
        let out = directory.appendingPathComponent("t.rgba")
        let run = try runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "\"$0\" \"$1\" \"$2\" > \"$3\"", python.path, Self.decoder.path, file.path, out.path])
        try #require(run.status == 0, "\(name): \(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: out))
        let newline = try #require(bytes.firstIndex(of: 10))
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        try #require(fields.count == 4 && fields[0] == drawn.width && fields[1] == drawn.height, "\(name): \(fields)")
        let rgba = Array(bytes[(newline + 1)...])
        try #require(rgba.count == drawn.width * drawn.height * 4)
        var differing = 0
        for (index, pixel) in drawn.pixels.enumerated() {
            let (r, g, b, a) = (
                Int(rgba[4 * index]), Int(rgba[4 * index + 1]), Int(rgba[4 * index + 2]), Int(rgba[4 * index + 3])
            )
            func premultiplied(_ c: Int) -> UInt32 { UInt32((c * a + 127) / 255) }
            let decoded = UInt32(a) << 24 | premultiplied(r) << 16 | premultiplied(g) << 8 | premultiplied(b)
            if decoded != pixel { differing += 1 }
        }
        #expect(differing == 0, "\(name): \(differing) pixels decode differently from what Cairo drew")
    }

    /// Python's zlib reads tally's PNG back: under a sanitizer it only stretches the run, and
    /// the deflater's and encoder's memory are the other tests of this suite's.
    @Test(.enabled(if: canRun(python), "needs python3"), .readByAnOutsideProgram)
    func indexedAndRGBAOutputsDecodeToWhatCairoDrew() throws {
        let cases: [(String, UInt64, RenderSettings)] = [
            ("9,999 light on paper, 256 px", 9_999, RenderSettings()),
            (
                "99 dark on paper, 1,024 px", 99,
                RenderSettings(
                    side: .longer(1024), appearance: Appearance(theme: .dark, background: .paper))
            ),
            ("137 transparent", 137, RenderSettings(appearance: Appearance(background: .none))),
            (
                "Int64.max with its caption, 64 px", 9_223_372_036_854_775_807,
                RenderSettings(side: .longer(64))
            ),
            ("1 at 16 px", 1, RenderSettings(side: .longer(16))),
            (
                "99 ink on a translucent colour", 99,
                RenderSettings(
                    side: .longer(700),
                    appearance: Appearance(
                        overrides: [.accent: RGBA(hex: 0x3366FF)], background: .color(try RGBA(parsing: "#11223380"))),
                    style: .ink, seed: 3)
            ),
        ]
        var types: Set<UInt8> = []
        for (name, value, settings) in cases {
            let count = try #require(TallyCount(exactly: value))
            try expectDecodesToWhatCairoDrew(count, settings, name)
            types.insert(try kind(try Renderer.render(count, as: .png, settings)).colour)
        }
        // Both colour types were exercised: indexed (3) and RGBA (6).
        #expect(types == [3, 6], "colour types \(types)")
    }

    /// What tally writes: indexed with the fewest bits, tRNS only with transparency, RGBA only
    /// above 256 colours.
    @Test func theSmallestColourTypeThatHoldsThePicture() throws {
        let paper = try kind(try Renderer.render(9_999, as: .png, RenderSettings()))
        #expect(paper.colour == 3 && !paper.transparency && paper.palette <= 256, "\(paper)")
        #expect(paper.depth == (paper.palette <= 2 ? 1 : paper.palette <= 4 ? 2 : paper.palette <= 16 ? 4 : 8))
        let clear = try kind(
            try Renderer.render(137, as: .png, RenderSettings(appearance: Appearance(background: .none))))
        #expect(clear.colour == 3 && clear.transparency, "\(clear)")
        // An empty image on its paper: one colour, one bit.
        let empty = try kind(try Renderer.render(0, as: .png, RenderSettings()))
        #expect(empty.colour == 3 && empty.depth == 1 && empty.palette == 1, "\(empty)")
    }

    /// The encoder on made-up pixels: bit depths at each palette size, the palette's order
    /// (translucent colours first, then first appearance), and the 257th colour making RGBA.
    @Test(arguments: [(1, 1), (2, 1), (3, 2), (4, 2), (5, 4), (16, 4), (17, 8), (256, 8), (257, 0), (300, 0)])
    func bitDepthsAndTheLimit(_ colours: Int, _ depth: Int) throws {
        let width = 20
        let height = 20
        var pixels = (0..<(width * height)).map { index -> UInt32 in 0xFF00_0000 | UInt32(index % colours) &* 0x010305 }
        if colours == 3 { pixels[7] = 0x8000_0000 }  // one translucent black among two opaque colours
        let image = pixels.withUnsafeBufferPointer {
            IndexedImage(width: width, height: height, stride: width, pixels: $0.baseAddress!)
        }
        guard depth > 0 else {
            #expect(image == nil, "257 colours must stay RGBA")
            return
        }
        let indexed = try #require(image)
        #expect(indexed.bitDepth == depth)
        if colours == 3 {
            // The translucent black is entry 0, before the three opaque colours.
            #expect(indexed.alphas == [128] && indexed.palette.count == 4)
        } else {
            #expect(indexed.alphas.isEmpty && indexed.palette.count == colours)
            // First appearance: the first pixel's colour is entry 0, the second's entry 1.
            #expect(indexed.palette[0] == (0, 0, 0))
        }
        let png = pixels.withUnsafeBufferPointer {
            try? PNGEncoder.encode(width: width, height: height, stride: width, pixels: $0.baseAddress!, text: [])
        }
        let bytes = try #require(png)
        let decoded = try #require(PNGImage(png: bytes))
        #expect(decoded.pixels.elementsEqual(pixels) || colours == 3)
    }

    /// The same pixels give the same bytes.
    @Test func bytesAreDeterministic() throws {
        let settings = RenderSettings(
            side: .longer(300), appearance: Appearance(background: .none), style: .ink, seed: 9)
        #expect(try Renderer.render(1_234, as: .png, settings) == Renderer.render(1_234, as: .png, settings))
    }
}
#endif
