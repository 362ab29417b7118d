import Testing

@testable import TallyGeometry

/// The caption's stroke font (SPEC §2, "Magnitude in the picture"): its glyphs are literal
/// tables of numbers, x and y in turn, each polyline ended by `Glyph.lineEnd`, where a slip of
/// one number would shift every point after it.
@Suite struct StrokeFontTests {
    /// Every character a caption or a short form can hold.
    static let characters: [Character] =
        Array("0123456789,.×KMBT") + Words.superscriptDigits

    @Test(arguments: characters)
    func everyGlyphIsWholePolylinesInsideItsCell(_ character: Character) throws {
        let glyph = try #require(StrokeFont.glyph(character))
        // Pairs between the ends, and the table ends a polyline.
        var run = 0
        for value in glyph.points {
            if value == StrokeFont.Glyph.lineEnd {
                #expect(run >= 4 && run % 2 == 0, "\(character): a polyline of \(run) numbers")
                run = 0
            } else {
                run += 1
            }
        }
        #expect(run == 0, "\(character): the last polyline has no end")
        // Each polyline has two points or more, every point inside the glyph's cell: 8 tall
        // (the comma's tail reaching `descent` below, a raised digit above), within its advance.
        var points: [(point: Point, startsLine: Bool)] = []
        glyph.forEachPoint { points.append(($0, $1)) }
        #expect(points.first?.startsLine == true)
        for (point, _) in points {
            #expect(point.x >= 0 && point.x <= glyph.advance - glyph.space + 0.25, "\(character): \(point)")
            #expect(
                point.y >= -StrokeFont.raise - 1e-9 && point.y <= 8 + StrokeFont.descent + 1e-9,
                "\(character): \(point)")
        }
    }

    /// A raised digit is its digit drawn three quarters as large, its top above the digits' tops.
    @Test func raisedDigitsAreTheDigitsSmallerAndHigher() throws {
        for (index, raised) in Words.superscriptDigits.enumerated() {
            let digit = try #require(StrokeFont.glyph(Character(String(index))))
            let small = try #require(StrokeFont.glyph(raised))
            var (large, lifted): ([Point], [Point]) = ([], [])
            digit.forEachPoint { point, _ in large.append(point) }
            small.forEachPoint { point, _ in lifted.append(point) }
            #expect(lifted.count == large.count)
            for (a, b) in zip(large, lifted) {
                #expect(abs(a.x * 0.75 - b.x) < 1e-12 && abs(a.y * 0.75 - 1.2 - b.y) < 1e-12)
            }
            #expect(abs(small.advance - digit.advance * 0.75) < 1e-12)
        }
    }
}
