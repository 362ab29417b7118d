import Foundation
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

@Suite struct SVGInkTests {
    @Test func inkIsDeterministicAndSeeded() throws {
        // Large enough that every stroke shows, so pens vary within a kind and each path has its own.
        let a = try render(137, RenderSettings(side: .longer(3000), style: .ink, seed: 1))
        let b = try render(137, RenderSettings(side: .longer(3000), style: .ink, seed: 1))
        let c = try render(137, RenderSettings(side: .longer(3000), style: .ink, seed: 2))
        let clean = try render(137, RenderSettings(side: .longer(3000)))
        #expect(a == b)
        #expect(a != c)
        #expect(a != clean)
        let root = try parsed(a)
        // The pens; the dotted cells of the units being filled (SPEC §2, "The partial unit shows
        // its whole cell") are dashed outlines on the pixel grid and the edges fills, neither bowed.
        let paths = root.descendants.filter {
            $0.name == "path" && !($0.attributes["class"] ?? "").hasPrefix("edge")
                && !($0.attributes["class"] ?? "").hasPrefix("dotted")
        }
        #expect(paths.count >= 30)
        #expect(paths.allSatisfy { ($0.attributes["d"] ?? "").contains("q") })
        #expect(paths.allSatisfy { $0.attributes["stroke-width"] != nil })
    }

    @Test func aMarkKeepsItsWobbleAsTheCountGrows() {
        let before = InkStyle.apply(to: TallyScene(count: TallyCount(exactly: 41)!), seed: 5)
        let after = InkStyle.apply(to: TallyScene(count: TallyCount(exactly: 42)!), seed: 5)
        #expect(Array(after.marks.prefix(before.marks.count)) == before.marks)
    }

    /// The ink style stays near the designed marks: pens within 25%, ends within a third of a
    /// pen of wobble plus the slant (at most two pens, less on short marks).
    @Test func inkStaysCloseToTheCleanMarks() {
        let clean = TallyScene(count: TallyCount(exactly: 9_999)!)
        let ink = InkStyle.apply(to: clean, seed: 77)
        for (a, b) in zip(clean.marks, ink.marks) {
            #expect(abs(a.width - b.width) <= a.width * 0.251)
            for (s, t) in zip(a.segments, b.segments) {
                let reach = a.width * (0.35 * 2.0.squareRoot() + 2) + 1e-9
                #expect(abs(s.start.x - t.start.x) <= reach && abs(s.end.y - t.end.y) <= reach)
            }
        }
    }

    /// The hand shows. Strokes lean one way (the seed's hand), their pens differ, and
    /// they bow; yet two strokes of one gate never touch.
    @Test(arguments: [UInt64(0), 1, 77, UInt64.max])
    func theHandShowsAndStrokesNeverTouch(seed: UInt64) throws {
        let ink = InkStyle.apply(to: TallyScene(count: TallyCount(exactly: 99)!), seed: seed)
        let strokes = ink.marks.filter { $0.kind == .stroke }
        try #require(strokes.count == 4 * 19 + 4)
        // Lean: the top of a stroke (its start) right of its bottom, on average by a tenth of a unit or more.
        let lean = strokes.map { $0.segments[0].start.x - $0.segments[0].end.x }.reduce(0, +) / Double(strokes.count)
        #expect(lean > 0.1, "mean lean \(lean)")
        // Pressure: pens differ by a tenth or more between the thinnest and the widest.
        let widths = strokes.map(\.width)
        #expect(try #require(widths.max()) - (try #require(widths.min())) > 0.09)
        // Bow: some stroke bends by a fifth of a unit or more.
        let bends = strokes.map { stroke -> Double in
            let segment = stroke.segments[0]
            guard let control = segment.control else { return 0 }
            return abs(control.x - (segment.start.x + segment.end.x) / 2)
        }
        #expect(try #require(bends.max()) > 0.2)
        // Neighbouring strokes of a gate (every four in count order) keep apart along their whole length.
        func points(_ mark: Mark) -> [Point] {
            let segment = mark.segments[0]
            let control = segment.control ?? segment.start
            return (0...16).map { step in
                let t = Double(step) / 16
                let u = 1 - t
                return Point(
                    u * u * segment.start.x + 2 * u * t * control.x + t * t * segment.end.x,
                    u * u * segment.start.y + 2 * u * t * control.y + t * t * segment.end.y)
            }
        }
        for gate in stride(from: 0, to: strokes.count, by: 4) {
            for index in gate..<min(gate + 3, strokes.count - 1) {
                let (a, b) = (strokes[index], strokes[index + 1])
                var distance = Double.infinity
                for p in points(a) {
                    for q in points(b) {
                        let (dx, dy) = (p.x - q.x, p.y - q.y)
                        distance = min(distance, (dx * dx + dy * dy).squareRoot())
                    }
                }
                #expect(distance > (a.width + b.width) / 2, "strokes \(index) and \(index + 1) touch with seed \(seed)")
            }
        }
    }
}
