import Foundation
import TallyTestSupport
import Testing

@testable import TallyEncoding

/// The number writer every SVG and JSON coordinate goes through:
/// properties of its text, over many values and every precision.
@Suite struct DecimalTextTests {
    @Test func numbersAreFixedPointAndClose() {
        var generator = SeededGenerator(state: 0xDEC1_3A17)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 0...6, using: &generator)
            let magnitude = pow(10, Double.random(in: -4...12, using: &generator))
            let value = Double.random(in: -magnitude...magnitude, using: &generator)
            let text = DecimalText.fixed(value, digits: digits)
            // Digits, at most one point, a sign only in front; never an exponent or "-0".
            #expect(text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }, "\(value) → \(text)")
            #expect(text != "-0" && !text.hasPrefix("-0") || text.hasPrefix("-0."), "\(value) → \(text)")
            if let point = text.firstIndex(of: ".") {
                let fraction = text[text.index(after: point)...]
                #expect(!fraction.isEmpty && fraction.count <= digits && fraction.last != "0", "\(value) → \(text)")
            }
            // Within half a unit of the last place (and a hair for the binary value); past 2⁵³
            // units of the last place only the whole part is written, as documented.
            let back = Double(text) ?? .nan
            let unit = abs(value) * pow(10, Double(digits)) >= 9e15 ? 1 : pow(10, Double(-digits))
            #expect(abs(back - value) <= unit / 2 + abs(value) * 1e-15 + 1e-12, "\(value) at \(digits) → \(text)")
        }
    }

    @Test func examples() {
        #expect(DecimalText.fixed(0) == "0")
        #expect(DecimalText.fixed(-0.0001) == "0")
        #expect(DecimalText.fixed(0.0005) == "0.001")
        #expect(DecimalText.fixed(-0.0005) == "-0.001")
        #expect(DecimalText.fixed(2.5, digits: 0) == "3")
        #expect(DecimalText.fixed(12.3400) == "12.34")
        #expect(DecimalText.fixed(1_234_567) == "1234567")
        #expect(DecimalText.fixed(Double(Int64.max)) == "9223372036854775808")  // the nearest Double, 2⁶³
        #expect(DecimalText.fixed(.nan) == "0" && DecimalText.fixed(.infinity) == "0")
        // Every length of whole part and every count of places, zeros inside kept.
        #expect(DecimalText.fixed(0.05, digits: 2) == "0.05")
        #expect(DecimalText.fixed(-7.000001, digits: 6) == "-7.000001")
        #expect(DecimalText.fixed(12.0625, digits: 4) == "12.0625")
        #expect(DecimalText.fixed(100.5, digits: 1) == "100.5")
        #expect(DecimalText.fixed(999.99901, digits: 5) == "999.99901")
        #expect(DecimalText.fixed(1234.5) == "1234.5")
        #expect(DecimalText.fixed(30.1000, digits: 6) == "30.1")
        var buffer = TextBuffer(capacity: 1)
        buffer.append(0.5, digits: 3, leadingZero: false)
        buffer.append(byte: UInt8(ascii: " "))
        buffer.append(-0.25, digits: 3, leadingZero: false)
        buffer.append(literal: " ")
        buffer.append(integer: 10_000_000_000)
        #expect(buffer.string == ".5 -.25 10000000000")
    }
}
