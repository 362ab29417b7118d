import Foundation
import TallyStyle
import Testing

/// WCAG 2's relative luminance and contrast ratio (SPEC §2, "Contrast"), read through the table
/// of linear channel values.
@Suite struct ContrastTests {
    /// Every entry is the formula's value, to the bit: the table stands for `pow`, never for an
    /// approximation of it, so no 3:1 or 4.5:1 decision can move.
    @Test func everyChannelIsTheFormulasValue() {
        #expect(linearSRGB.count == 256)
        for channel in 0..<min(256, linearSRGB.count) {
            let c = Double(channel) / 255
            let formula = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            #expect(linearSRGB[channel].bitPattern == formula.bitPattern, "channel \(channel)")
        }
    }

    /// WCAG's own figures: black on white is 21:1, a colour on itself 1:1, and #767676 on white
    /// the smallest grey that reaches 4.5:1 (4.54).
    @Test func wcagsFigures() {
        let (black, white) = (RGBA(red: 0, green: 0, blue: 0), RGBA(red: 255, green: 255, blue: 255))
        #expect(abs(Contrast.ratio(black, white) - 21) < 1e-12)
        #expect(Contrast.ratio(white, white) == 1)
        let grey = RGBA(red: 0x76, green: 0x76, blue: 0x76)
        #expect((Contrast.ratio(grey, white) * 100).rounded() == 454)
        #expect(Contrast.luminance(white) == 1)
    }
}
