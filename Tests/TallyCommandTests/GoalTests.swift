import Foundation
import Tally
import TallyTestSupport
import Testing

/// SPEC §6, `--of N`: the goal's frame, the count's marks as usual, and the cells still to fill
/// as `remaining` outlines; the words say "6,200 of 10,000 (62%)".
@Suite struct GoalTests {
    /// The bounding box of a mark's segments (pen left out).
    static func box(_ mark: Mark) -> Rect {
        let xs = mark.segments.flatMap { [$0.start.x, $0.end.x] }
        let ys = mark.segments.flatMap { [$0.start.y, $0.end.y] }
        let (minX, minY) = (xs.min() ?? 0, ys.min() ?? 0)
        return Rect(minX: minX, minY: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    /// Whether two boxes share more than an edge.
    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        let epsilon = 1e-6
        return a.minX < b.minX + b.width - epsilon && b.minX < a.minX + a.width - epsilon
            && a.minY < b.minY + b.height - epsilon && b.minY < a.minY + a.height - epsilon
    }

    /// Whether a point lies strictly inside a box.
    static func inside(_ point: Point, _ box: Rect) -> Bool {
        point.x > box.minX + 1e-6 && point.x < box.minX + box.width - 1e-6 && point.y > box.minY + 1e-6
            && point.y < box.minY + box.height - 1e-6
    }

    /// Over 200 random (count, goal) pairs, at full detail (the JSON scene): the remaining cells
    /// and the filled ones tile the goal exactly. The remaining cells hold the goal less the
    /// count, no two overlap, none holds a mark of the count, all lie in the frame; no remaining
    /// mark is a cap; and the count's own marks are those it has without a goal in that frame.
    @Test func remainingCellsAndFilledCellsTileTheGoal() throws {
        var generator = SeededGenerator(state: 0x60A1)
        for _ in 0..<200 {
            let digits = Int(generator.next() % 8) + 1
            var goalValue: UInt64 = 1
            for _ in 0..<digits { goalValue = goalValue * 10 }
            goalValue = max(1, generator.next() % goalValue + (generator.next() % 2 == 0 ? 0 : goalValue / 10))
            let countValue = generator.next() % (goalValue + 1)
            let goal = try #require(TallyCount(exactly: goalValue))
            let count = try #require(TallyCount(exactly: countValue))
            let scene = TallyMarks.scene(count, of: goal)
            #expect(scene.canvas.level == UnitLevel.frame(for: goal), "\(count) of \(goal): the goal's frame")
            let remaining = scene.marks.filter { $0.kind == .remaining }
            let own = scene.marks.filter { $0.kind != .remaining }
            #expect(
                own == TallyMarks.scene(count, frame: scene.canvas.level).marks,
                "\(count) of \(goal): the count's marks")
            #expect(
                remaining.reduce(0) { $0 + $1.unit } == goalValue - countValue,
                "\(count) of \(goal): remaining cells hold the goal less the count")
            let boxes = remaining.map(Self.box)
            let frame = scene.canvas.rect
            // Cells, not the places of single strokes (a dashed slash crosses its gate's strokes).
            let cells = zip(remaining, boxes).filter { $0.0.unit > 1 }.map(\.1)
            let places = remaining.filter { $0.unit == 1 }.map { $0.segments }
            #expect(Set(places.map { "\($0)" }).count == places.count, "\(count) of \(goal): no stroke place twice")
            for box in boxes {
                #expect(box.minX >= -1e-9 && box.minY >= -1e-9, "\(count) of \(goal): inside the frame")
                #expect(
                    box.minX + box.width <= frame.width + 1e-9 && box.minY + box.height <= frame.height + 1e-9,
                    "\(count) of \(goal): inside the frame")
            }
            for (index, cell) in cells.enumerated() {
                for other in cells[(index + 1)...] where Self.overlap(cell, other) {
                    Issue.record("\(count) of \(goal): two remaining cells overlap: \(cell) and \(other)")
                }
            }
            for mark in own {
                for segment in mark.segments {
                    let middle = Point((segment.start.x + segment.end.x) / 2, (segment.start.y + segment.end.y) / 2)
                    if let box = cells.first(where: { Self.inside(middle, $0) }) {
                        Issue.record("\(count) of \(goal): a \(mark.kind) of the count lies in a remaining cell \(box)")
                    }
                }
            }
            for mark in remaining {
                #expect(mark.color == .c3 && mark.opacity == 0.85, "remaining: c3 at 0.85")
                #expect(!mark.kind.isTally, "a remaining mark is never part of the tally, never a cap")
            }
        }
    }

    /// Reached: the frame drawn complete, as for the count itself. Past it: the count whole in
    /// its own frame, with the goal's frame outlined once.
    @Test func theGoalReachedAndPassed() throws {
        let reached = TallyMarks.scene(10_000, of: 10_000)
        #expect(reached.marks == TallyMarks.scene(10_000).marks)
        let passed = TallyMarks.scene(12_000, of: 10_000)
        #expect(passed.canvas.level == UnitLevel.frame(for: 12_000))
        let outlines = passed.marks.filter { $0.kind == .remaining }
        #expect(outlines.count == 1 && outlines.first?.unit == 10_000, "the goal's frame outlined once")
        #expect(passed.marks.filter { $0.kind != .remaining } == TallyMarks.scene(12_000).marks)
    }

    /// Remaining outlines carry meaning, so they meet 3:1 against both papers (SPEC §2): c3 at
    /// 0.85 over the paper, from the palette's literal colours.
    @Test(arguments: [("#77777C", "#FAFAF7"), ("#9A9A9C", "#1C1C1F")])
    func remainingOutlinesMeetThreeToOne(_ ink: String, _ paper: String) throws {
        func channels(_ hex: String) -> [Double] {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            return [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
        }
        func luminance(_ rgb: [Double]) -> Double {
            let linear = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let (mark, ground) = (channels(ink), channels(paper))
        let blended = zip(mark, ground).map { 0.85 * $0 + 0.15 * $1 }
        let (a, b) = (luminance(blended), luminance(ground))
        #expect((max(a, b) + 0.05) / (min(a, b) + 0.05) >= 3)
        let opacity = try #require(TallyMarks.scene(0, of: 100).marks.first?.opacity)
        #expect(opacity == 0.85)
    }

    /// The words: describe, its JSON, the SVG's title, the PNG's and the PDF's metadata.
    @Test func theWordsSayTheProgress() throws {
        let describe = try TallyProcess.run(["describe", "6200", "--of", "10000"])
        #expect(describe.status == 0)
        #expect(describe.text.hasPrefix("6,200 of 10,000 (62%)\n"))
        #expect(try TallyProcess.run(["describe", "9999", "--of", "10000"]).text.hasPrefix("9,999 of 10,000 (99%)"))
        #expect(try TallyProcess.run(["describe", "12000", "--of", "10000"]).text.hasPrefix("12,000 of 10,000 (120%)"))
        #expect(try TallyProcess.run(["describe", "1", "--of", "1000"]).text.hasPrefix("1 of 1,000 (<1%)"))
        let json = try TallyProcess.run(["describe", "6200", "--of", "10000", "--json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["of"] as? Int == 10_000)
        #expect(object["percent"] as? Int == 62)
        let svg = try TallyProcess.run(["render", "6200", "--of", "10000", "-f", "svg"]).text
        #expect(svg.contains("-title\">6,200 of 10,000 (62%)</title>"))
        if cairoIsBuiltIn {
            // Cairo writes a PDF title with parentheses as UTF-16 in hex.
            let utf16 = "6,200 of 10,000 (62%)".utf16.map { String(format: "%04X", $0) }.joined()
            for (format, title) in [
                ("png", "tEXtTitle\u{0}6,200 of 10,000 (62%)"), ("pdf", "/Title <FEFF\(utf16)>"),
            ] {
                let bytes = try TallyProcess.run(["render", "6200", "--of", "10000", "-f", format, "-o", "-"]).stdout
                #expect(bytes.range(of: Data(title.utf8)) != nil, "\(format) metadata says the progress")
            }
        }
    }

    /// Bad goals: one line each, exit 64.
    @Test(arguments: [
        (["render", "5", "--of", "0"], "--of '0' is not a goal"),
        (["render", "5", "--of", "-1"], "--of '-1' is negative"),
        (["render", "5", "--of", "x"], "--of 'x' is not a number"),
        (["render", "5", "--of", "100", "--frame", "1000"], "--frame '1000' is not the frame of --of '100'"),
        (["describe", "5", "--of", "0"], "--of '0' is not a goal"),
        (["batch", "5", "--of", "x", "--out-dir", "/nonexistent/x"], "--of 'x' is not a number"),
    ])
    func badGoalsAreOneLine(_ arguments: [String], _ needle: String) throws {
        expectOneLineError(try TallyProcess.run(arguments), status: 64, mentioning: needle)
    }

    /// A goal with its own frame pinned is the same image; batch and gallery take it too.
    @Test func everyCommandTakesAGoal() throws {
        let plain = try TallyProcess.run(["render", "50", "--of", "100", "-f", "svg"])
        let pinned = try TallyProcess.run(["render", "50", "--of", "100", "--frame", "100", "-f", "svg"])
        #expect(plain.status == 0 && pinned.status == 0)
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let batch = try TallyProcess.run(["batch", "0...3", "--of", "5", "--out-dir", directory.path])
        #expect(batch.status == 0, "\(batch.stderr)")
        let first = try String(contentsOf: directory.appendingPathComponent("tally-2.svg"), encoding: .utf8)
        #expect(first.contains("2 of 5 (40%)"))
        let gallery = try TallyProcess.run(["gallery", "10,20", "--of", "25", "-f", "svg"])
        #expect(gallery.status == 0 && gallery.text.contains("remaining"), "\(gallery.stderr)")
    }
}
