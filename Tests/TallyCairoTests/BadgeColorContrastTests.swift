import Foundation
import TallyBadge
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
import Testing

#if Cairo
import TallyCairo
#endif

/// SPEC §7, "At home beside shields", measured from the PNG's pixels: on a value plate of a
/// shields colour the plate is that colour, and a solid run of the number's pixels reaches
/// 4.5:1 and of the strip's 3:1; on a label plate of one, the label reaches 4.5:1.
@Suite(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG)")) struct BadgeColorContrastTests {
    /// A few of shields' colours (badge-maker's `color.js`): the lightest, the mid tones where
    /// white text falls under 4.5:1 (red, blue), and the grey where it does not.
    static let plates: [(name: String, hex: UInt32)] = [
        ("yellow", 0xDFB317), ("red", 0xE05D44), ("blue", 0x007EC6), ("brightgreen", 0x44CC11), ("grey", 0x555555),
    ]

    static func ratio(_ a: UInt32, _ b: UInt32) -> Double {
        func luminance(_ hex: UInt32) -> Double {
            func linear(_ channel: UInt32) -> Double {
                let c = Double(channel) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(hex >> 16 & 0xFF) + 0.7152 * linear(hex >> 8 & 0xFF) + 0.0722 * linear(hex & 0xFF)
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    #if Cairo
    func png(_ count: UInt64, plates: BadgePlates, theme: Theme, scale: Double = 2) throws -> (Badge, PNGImage) {
        let badge = try Badge(count: try #require(TallyCount(exactly: count)), label: "downloads")
        let settings = BadgeSettings(
            format: .png, label: "downloads", scale: scale, appearance: Appearance(theme: theme), plates: plates)
        return (badge, try #require(PNGImage(png: try Renderer.badge(badge, settings))))
    }

    /// The pixels of a region, opaque RGB.
    func region(_ image: PNGImage, x: Range<Int>, y: Range<Int>) -> [UInt32] {
        var pixels: [UInt32] = []
        for row in y { for column in x { pixels.append(image.pixels[row * image.width + column] & 0xFF_FFFF) } }
        return pixels
    }

    @Test(arguments: plates, [Theme.light, .dark])
    func valuePlatesReadFromThePixels(_ plate: (name: String, hex: UInt32), _ theme: Theme) throws {
        let (name, hex) = plate
        let scale = 2.0
        let (badge, image) = try png(99, plates: BadgePlates(value: RGBA(hex: hex)), theme: theme, scale: scale)
        let labelPlate = try #require(badge.shapes.first { $0.role == .labelPlate })
        let valueStart = Int((labelPlate.contours.flatMap { $0.map(\.end.x) }.max() ?? 0) * scale)
        let textLeft = Int((badge.width - 6 - BadgeFont.width(of: badge.value, size: 11) - 1) * scale)
        let rows = Int(3 * scale)..<Int(17 * scale)
        let plate = region(image, x: valueStart + 2..<image.width - 2, y: rows)
        var counts: [UInt32: Int] = [:]
        for pixel in plate { counts[pixel, default: 0] += 1 }
        #expect(counts.max { $0.value < $1.value }?.key == hex, "\(name): the plate is the given colour")
        let text = region(image, x: textLeft..<image.width - Int(3 * scale), y: rows)
        let readable = text.filter { Self.ratio($0, hex) >= 4.5 }.count
        #expect(readable >= 12 * 4, "\(name) \(theme): \(readable) text pixels reach 4.5:1")
        let marks = region(image, x: valueStart + Int(6 * scale)..<textLeft - Int(2 * scale), y: rows)
        let visible = marks.filter { Self.ratio($0, hex) >= 3 }.count
        #expect(visible >= 20 * 4, "\(name) \(theme): \(visible) mark pixels reach 3:1")
    }

    @Test(arguments: plates)
    func labelPlatesReadFromThePixels(_ name: String, _ hex: UInt32) throws {
        let scale = 2.0
        let (badge, image) = try png(1234, plates: BadgePlates(label: RGBA(hex: hex)), theme: .light, scale: scale)
        let labelPlate = try #require(badge.shapes.first { $0.role == .labelPlate })
        let labelEnd = Int((labelPlate.contours.flatMap { $0.map(\.end.x) }.max() ?? 0) * scale)
        let pixels = region(image, x: Int(2 * scale)..<labelEnd - Int(2 * scale), y: Int(3 * scale)..<Int(17 * scale))
        var counts: [UInt32: Int] = [:]
        for pixel in pixels { counts[pixel, default: 0] += 1 }
        #expect(counts.max { $0.value < $1.value }?.key == hex)
        let readable = pixels.filter { Self.ratio($0, hex) >= 4.5 }.count
        #expect(readable >= 40 * 4, "\(name): \(readable) label pixels reach 4.5:1")
    }
    #endif
}
