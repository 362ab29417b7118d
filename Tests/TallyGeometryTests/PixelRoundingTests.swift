import PropertyBased
import Testing

@testable import TallyGeometry

/// The pixel grid's rounding (SPEC §2, "Small sizes") does by arithmetic what `rounded()` and
/// `truncatingRemainder(dividingBy:)` do through libm, for every Double: the pictures depend on
/// it bit for bit (a -0 or a half rounded the other way moves a pen by a pixel).
@Suite struct PixelRoundingTests {
    /// Equal as bits (so -0 and +0 differ), or both NaN.
    private func same(_ a: Double, _ b: Double) -> Bool {
        a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    }

    /// Any Double at all (every bit pattern: NaNs, infinities, subnormals, ±0), and the values
    /// where rounding decides: halves, their neighbours, whole numbers, and values near 2⁵²
    /// and 2⁵³, drawn from 64 random bits.
    private static func value(_ bits: UInt64) -> Double {
        let whole = Double(Int64(truncatingIfNeeded: bits) >> Int64(bits & 63))
        let sign = bits & 64 == 0 ? 1.0 : -1.0
        switch bits % 6 {
        case 0: return Double(bitPattern: bits)
        case 1: return whole + 0.5
        case 2: return (whole + 0.5).nextUp
        case 3: return (whole + 0.5).nextDown
        case 4: return sign * (4_503_599_627_370_496 + Double(bits >> 52)) * (bits & 128 == 0 ? 1 : 2)
        default: return whole
        }
    }

    private static let bits = Gen<UInt64>.value(in: 0...UInt64.max)

    @Test func nearestIsRoundedForEveryDouble() async {
        await propertyCheck(count: 20_000, input: Self.bits) { bits in
            let value = Self.value(bits)
            #expect(same(PixelRounding.nearest(value), value.rounded()), "\(value)")
        }
    }

    @Test func parityIsTheRemainderForEveryDouble() async {
        await propertyCheck(count: 20_000, input: Self.bits) { bits in
            let value = Self.value(bits)
            #expect(PixelRounding.isOdd(value) == (value.truncatingRemainder(dividingBy: 2) == 1), "\(value)")
        }
        for (value, odd) in [(1.0, true), (2.0, false), (3.0, true), (1.5, false), (0.0, false), (-1.0, false)] {
            #expect(PixelRounding.isOdd(value) == odd, "\(value)")
        }
    }

    /// A pen's centre: a pixel's middle for an odd pen, an edge for an even one, as the rule
    /// reads with `rounded()`; and a pen is whole, at least one pixel.
    @Test func centresAndPensFollowTheRule() async {
        await propertyCheck(count: 20_000, input: Self.bits) { bits in
            let (value, odd) = (Self.value(bits), bits & 256 != 0)
            let rule = odd ? (value - 0.5).rounded() + 0.5 : value.rounded()
            #expect(same(PixelRounding.centre(value, odd: odd), rule), "\(value), odd \(odd)")
            if value.isFinite {
                #expect(same(PixelRounding.pen(value), max(1, value.rounded())), "\(value)")
            }
        }
    }
}
