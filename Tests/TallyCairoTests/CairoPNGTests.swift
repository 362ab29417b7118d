#if Cairo
import CCairo
import Foundation
import Testing
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
@testable import TallyCairo

func render(_ count: TallyCount, as format: OutputFormat, _ settings: RenderSettings) throws -> Data {
    Data(try Renderer.render(count, as: format, settings))
}

@Suite struct CairoPNGTests {
    @Test func pngsAreIndexedOfTheAskedSize() throws {
        let png = try render(TallyCount(exactly: 137)!, as: .png, RenderSettings(side: .width(300), scale: 2))
        #expect(png.starts(with: PNGEncoder.signature))
        // IHDR: width, height, bit depth 8, colour type 3 (indexed: 137 has under 256 colours).
        let header = Array(png[16..<26])
        #expect(header[0..<4] == [0, 0, 0x02, 0x58])
        #expect(header[8] == 8 && header[9] == 3)
        let pixels = try #require(PNGImage(png: Array(png)))
        #expect(pixels.width == 600)
    }

    @Test func titleAndDescriptionAreTextChunks() throws {
        let png = try render(TallyCount(exactly: 1234)!, as: .png, RenderSettings())
        let text = String(decoding: png, as: UTF8.self)
        #expect(text.contains("tEXtTitle\u{0}1,234 tally marks"))
        #expect(
            text.contains(
                "tEXtDescription\u{0}1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and 4 strokes"))
        let labelled = try render(TallyCount(exactly: 3)!, as: .png, RenderSettings(label: "Tage ohne Zucker — 三"))
        #expect(
            String(decoding: labelled, as: UTF8.self).contains("iTXtTitle\u{0}\u{0}\u{0}\u{0}\u{0}Tage ohne Zucker — 三")
        )
        // Cairo can still read the file: the chunks and their checksums are right.
        #expect(PNGImage(png: Array(labelled)) != nil)
    }

    @Test func theChunkChecksumIsPNGs() {
        // The IEND chunk is fixed by the PNG standard, checksum included.
        #expect(PNGEncoder.chunk("IEND", []) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    /// SPEC §5: the smallest colour type; 1 on its paper has a few colours (paper, ink and the
    /// anti-aliased greys of its round caps): indexed, with no transparency.
    @Test func opaqueImagesAreIndexed() throws {
        let png = try render(
            TallyCount(exactly: 1)!, as: .png, RenderSettings(appearance: Appearance(background: .paper)))
        #expect(png[25] == 3 && !String(decoding: png, as: UTF8.self).contains("tRNS"))
        let image = try #require(PNGImage(png: Array(png)))
        #expect(image.pixels[0] == 0xFFFA_FAF7)
    }

    /// Half-transparent ink comes back as it went in: straight alpha in the file.
    @Test func translucentColoursSurvive() throws {
        let settings = RenderSettings(
            side: .longer(64),
            appearance: Appearance(background: .color(RGBA(hex: 0x336699, alpha: 0x80))))
        let image = try #require(PNGImage(png: Array(try render(TallyCount(exactly: 0)!, as: .png, settings))))
        // Premultiplied on reading: 0x80 alpha, each channel scaled by 128/255.
        let pixel = image.pixels[0]
        #expect(pixel >> 24 == 0x80)
        #expect(abs(Int(pixel >> 16 & 0xFF) - 0x33 * 128 / 255) <= 1 && abs(Int(pixel & 0xFF) - 0x99 * 128 / 255) <= 1)
    }

    @Test func sameArgumentsSameBytes() throws {
        for format in [OutputFormat.png, .pdf] {
            let settings = RenderSettings(
                appearance: Appearance(theme: .dark, background: .paper), style: .ink, seed: 4)
            #expect(
                try render(TallyCount(exactly: 9999)!, as: format, settings)
                    == render(TallyCount(exactly: 9999)!, as: format, settings))
        }
    }

    /// SPEC §3: a PNG is on its theme's paper by default (#FAFAF7 light, #1C1C1F dark, pinned
    /// here), and transparent with `--background none`.
    @Test func aTransparentBackgroundStaysTransparent() throws {
        let none = RenderSettings(appearance: Appearance(background: .none))
        let pixels = try #require(PNGImage(png: Array(try render(TallyCount(exactly: 1)!, as: .png, none))))
        #expect(pixels.pixels[0] == 0)
        let paper = try #require(
            PNGImage(png: Array(try render(TallyCount(exactly: 1)!, as: .png, RenderSettings()))))
        #expect(paper.pixels[0] == 0xFFFA_FAF7)
        let dark = RenderSettings(appearance: Appearance(theme: .dark, background: .paper))
        let darkPaper = try #require(PNGImage(png: Array(try render(TallyCount(exactly: 1)!, as: .png, dark))))
        #expect(darkPaper.pixels[0] == 0xFF1C_1C1F)
    }
}

#endif
