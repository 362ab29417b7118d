#if Cairo
import Testing
@testable import TallyCairo
import TallyTestSupport

/// The adaptive row filter tally writes large PNGs behind (SPEC §5; the PNG specification's
/// filter types 0–4): each row under the filter whose bytes have the least sum of absolute values
/// read as signed, the lowest type on a tie, computed from the unfiltered row above.
@Suite struct AdaptiveFilterTests {
    /// The rule as the PNG specification states it, one filter at a time, as plainly as it reads.
    private func reference(_ rows: [[UInt8]], bytesPerPixel bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        var previous = [UInt8](repeating: 0, count: rows.first?.count ?? 0)
        for row in rows {
            var candidates: [[UInt8]] = []
            for filter in 0...4 {
                candidates.append(
                    row.indices.map { i in
                        let x = Int(row[i])
                        let a = i >= bpp ? Int(row[i - bpp]) : 0
                        let b = Int(previous[i])
                        let c = i >= bpp ? Int(previous[i - bpp]) : 0
                        let predictor: Int
                        switch filter {
                        case 0: predictor = 0
                        case 1: predictor = a
                        case 2: predictor = b
                        case 3: predictor = (a + b) / 2
                        default:
                            let p = a + b - c
                            let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                            predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                        }
                        return UInt8(truncatingIfNeeded: x - predictor)
                    })
            }
            let costs = candidates.map { $0.reduce(0) { $0 + abs(Int(Int8(bitPattern: $1))) } }
            let best = costs.firstIndex(of: costs.min()!)!
            out += [UInt8(best)] + candidates[best]
            previous = row
        }
        return out
    }

    /// Random images of 1 and 4 bytes a pixel, with runs of repeated rows, blank rows and rows of
    /// one value (where the quick decision for a repeated row must agree with the full rule).
    @Test(arguments: [1, 4])
    func theFilterIsTheCheapestOfTheFiveLowestFirst(bytesPerPixel bpp: Int) {
        var random = SeededGenerator(state: UInt64(bpp) &* 0x9E37_79B9)
        for _ in 0..<60 {
            let rowBytes = bpp * Int.random(in: 1...40, using: &random)
            let height = Int.random(in: 1...30, using: &random)
            let palette = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            var rows: [[UInt8]] = []
            for _ in 0..<height {
                switch Int.random(in: 0..<5, using: &random) {
                case 0 where !rows.isEmpty: rows.append(rows.last!)
                case 1: rows.append([UInt8](repeating: 0, count: rowBytes))
                case 2: rows.append([UInt8](repeating: palette.randomElement(using: &random)!, count: rowBytes))
                default: rows.append((0..<rowBytes).map { _ in palette.randomElement(using: &random)! })
                }
            }
            let unfiltered: [UInt8] = rows.flatMap { [UInt8(0)] + $0 }
            let filtered = PNGEncoder.adaptivelyFiltered(unfiltered, rowBytes: rowBytes, bytesPerPixel: bpp)
            #expect(filtered == reference(rows, bytesPerPixel: bpp), "\(height) rows of \(rowBytes) bytes")
        }
    }
}
#endif
