import TallyGeometry

/// The strip of a badge (SPEC §7): the count's leading digit in tally marks.
///
/// A README badge is 20 px tall, too small for the notation's collapsed forms: boxes, crosses
/// and lines at that size were read as interface icons (checkboxes, close and "no image"
/// buttons), and a strip of one level's cells grew and shrank at every threshold. So the strip
/// shows one decade in ten slots of tally marks: the leading digit as strokes, every fifth
/// closing a gate with the accent slash, as tally marks are read everywhere (nine is a gate and
/// four strokes), then the partial progress to the next unit as a short, lighter stroke
/// standing on the floor under dots to a stroke's height. The number beside it names the
/// magnitude: 7, 70 and 7,000 have the same strip, and "7", "70" and "7,000" tell them apart.
/// Slots still to fill are left empty: a dotted track after the strokes was read as a progress
/// bar where there is no goal.
///
/// With a goal a slot is a tenth of it and every slot still to fill has a dot on the floor (a
/// goal is progress toward something); the goal's edge follows the tenth slot, and past the
/// goal up to five more slots (150%) continue beyond the edge. Either way the strip has one
/// width whatever the count (`width(withGoal:)`) and its marks start at its left edge, so a
/// badge is as wide as another whose number text is as wide, the number stays where it is, and
/// one more only ever adds or grows a mark.
///
/// Every pen is 1 px on a pixel centre, every end on a pixel edge: slot k's pen is centred
/// at `left + 2k + 0.5`, strokes run from y = 5 (the digits' cap height) to y = 14 (their
/// baseline), so marks and digits stand on one line and the strip is crisp at 1×, 2× and 3×.
struct BadgeStrip {
    /// The strip's own proportions, in pixels at scale 1 (SPEC §7).
    enum Metrics {
        /// Slots in the decade: a count's leading digit is at most nine, a goal's tenths ten.
        static let slots = 10
        /// Slots past a goal's edge: one gate, 150% of the goal; more is the number's to say.
        static let pastSlots = 5
        /// From one slot's pen to the next.
        static let pitch = 2.0
        /// From the tenth slot's pen to a goal's edge, and from the edge to the first slot
        /// past it: two clear pixels each side, so the edge never runs into a stroke beside it
        /// as a double bar.
        static let edgeSpace = 3.0
        /// Every pen of the strip.
        static let pen = 1.0
        /// The top of a stroke: the digits' cap height (`BadgeProportions.iconTop`).
        static let top = 5.0
        /// The floor strokes stand on: the text's baseline.
        static let floor = 14.0
        /// A stroke's height in whole pixels.
        static let strokePixels: UInt64 = 9
        /// The goal's edge runs past the strokes at both ends, inside the value plate (y 1…19).
        static let edgeTop = 3.0
        static let edgeBottom = 16.0
        /// A dot of a slot still to fill: one pixel, on the floor's last row.
        static let dotTop = 13.0
    }

    /// The marks, left to right: each slot's strokes, a gate's slash after its four strokes,
    /// the partial slot's bar, a goal's edge, then the dots (above the partial slot's bar, and
    /// with a goal on each slot still to fill).
    private(set) var marks: [Mark] = []
    /// The strip's width from `left`: the same for every count, `width(withGoal:)`.
    let width: Double

    /// The strip's width, without drawing it: from the first slot's left edge to the last
    /// slot's right edge, 19 px for a decade and 33 px with a goal (ten slots, the edge, and
    /// five slots past it). A badge's width depends only on this and its texts.
    static func width(withGoal: Bool) -> Double {
        let lastSlot = withGoal ? Metrics.slots + Metrics.pastSlots - 1 : Metrics.slots - 1
        return centre(of: lastSlot, left: 0) + Metrics.pen / 2
    }

    /// The pen centre of slot `index`: `left + 2k + 0.5` in the decade, and past a goal's edge
    /// (slots 10 and on) `edgeSpace` after the edge, then a pitch apart.
    static func centre(of index: Int, left: Double) -> Double {
        guard index >= Metrics.slots else { return left + Metrics.pitch * Double(index) + Metrics.pen / 2 }
        return edgeCentre(left: left) + Metrics.edgeSpace + Metrics.pitch * Double(index - Metrics.slots)
    }

    /// The pen centre of a goal's edge: `edgeSpace` after the tenth slot's.
    static func edgeCentre(left: Double) -> Double {
        centre(of: Metrics.slots - 1, left: left) + Metrics.edgeSpace
    }

    /// Lays out the strip of `count` (toward `goal`, if any) from `left`.
    init(count: TallyCount, goal: TallyCount?, left: Double) {
        width = Self.width(withGoal: goal != nil)
        let value = count.value
        var dots: [Segment] = []
        let remainingUnit: UInt64
        if let goal {
            let target = goal.value
            let unit = max(1, target / UInt64(Metrics.slots))
            remainingUnit = unit
            let (done, share) = Self.tenths(value, of: target)
            let inside = min(done, Metrics.slots)
            draw(
                slots: 0..<Metrics.slots, done: inside, partial: done < Metrics.slots ? share : 0, unit: unit,
                left: left, dots: &dots, dotTheRest: true)
            if done >= Metrics.slots {
                let past = min(done - Metrics.slots, Metrics.pastSlots)
                draw(
                    slots: Metrics.slots..<(Metrics.slots + Metrics.pastSlots), done: past,
                    partial: past < Metrics.pastSlots ? share : 0, unit: unit, left: left, dots: &dots,
                    dotTheRest: false)
            }
            let edge = Self.edgeCentre(left: left)
            marks.append(
                Mark(
                    kind: .line, unit: target, color: .c3, width: Metrics.pen,
                    segments: [Segment(edge, Metrics.edgeTop, edge, Metrics.edgeBottom)]))
        } else {
            let unit = Self.leadingUnit(value)
            remainingUnit = unit
            let done = Int(value / unit)
            let share = Self.pixels(value % unit, of: unit)
            draw(
                slots: 0..<Metrics.slots, done: done, partial: share, unit: unit, left: left, dots: &dots,
                dotTheRest: false)
        }
        if !dots.isEmpty {
            marks.append(
                Mark(
                    kind: .remaining, unit: remainingUnit, color: Proportions.remainingColor, width: Metrics.pen,
                    segments: dots))
        }
    }

    /// The unit of the count's leading digit: 10^(d−1) for a count of d digits, 1 for 0.
    static func leadingUnit(_ value: UInt64) -> UInt64 {
        var unit: UInt64 = 1
        while value / unit >= 10 { unit *= 10 }
        return unit
    }

    /// The whole tenths of `goal` that `count` fills, and the next tenth's share in whole
    /// pixels of a stroke (`pixels(_:of:)`): ⌊10·count / goal⌋ and 9·((10·count) mod goal) /
    /// goal, in 128 bits. From twice the goal on, twenty tenths and no share: the strip shows
    /// no more than 150% anyway, and 10·count / goal might not fit 64 bits.
    static func tenths(_ count: UInt64, of goal: UInt64) -> (done: Int, share: UInt64) {
        if count / goal >= 2 { return (2 * Metrics.slots, 0) }
        let (done, rest) = goal.dividingFullWidth(count.multipliedFullWidth(by: UInt64(Metrics.slots)))
        return (Int(done), pixels(rest, of: goal))
    }

    /// ⌊part / whole × 9⌋ whole pixels of a stroke, at least one where `part` is not zero and
    /// never rounded up, so a partial stroke never says more than the count (SPEC §7), without
    /// overflow.
    static func pixels(_ part: UInt64, of whole: UInt64) -> UInt64 {
        guard part > 0 else { return 0 }
        let floored = whole.dividingFullWidth(part.multipliedFullWidth(by: Metrics.strokePixels)).quotient
        return max(1, floored)
    }

    /// Draws a run of slots: `done` of them filled, every five of those a gate, then a partial
    /// stroke `partial` pixels tall (none for 0), then where `dotTheRest` a dot on each slot
    /// still to fill; the dots are collected into `dots`, one mark for the strip.
    private mutating func draw(
        slots: Range<Int>, done: Int, partial: UInt64, unit: UInt64, left: Double, dots: inout [Segment],
        dotTheRest: Bool
    ) {
        let (top, floor) = (Metrics.top, Metrics.floor)
        for offset in 0..<done {
            let index = slots.lowerBound + offset
            let x = Self.centre(of: index, left: left)
            if offset % 5 == 4 {
                // The fifth of a group is the gate's slash across its four strokes, from lower
                // left to upper right, ending half a pen past their outer pens (SPEC §2's gate).
                let start = Self.centre(of: index - 4, left: left) - Metrics.pen / 2
                let (t, b) = (top + Metrics.pen / 2, floor - Metrics.pen / 2)
                marks.append(
                    Mark(
                        kind: .slash, unit: 5 * unit, color: .accent, width: Metrics.pen,
                        segments: [Segment(start - 0.5, b - 1, start + 7.5, t + 1)]))
            } else {
                marks.append(
                    Mark(
                        kind: .stroke, unit: unit, color: .c1, width: Metrics.pen,
                        segments: [Segment(x, top, x, floor)]))
            }
        }
        var next = done
        if partial > 0, done < slots.count {
            let x = Self.centre(of: slots.lowerBound + done, left: left)
            marks.append(Self.partialStroke(at: x, pixels: partial, unit: unit))
            dots += Self.dotsAbove(x: x, pixels: partial)
            next += 1
        }
        guard dotTheRest else { return }
        for offset in next..<slots.count {
            let x = Self.centre(of: slots.lowerBound + offset, left: left)
            dots.append(Segment(x, Metrics.dotTop, x, Metrics.floor))
        }
    }

    /// The partial unit: a pen-wide bar standing on the floor, `pixels` tall, filled in the
    /// strokes' colour at `Proportions.progressOpacity` (the notation's progress edge, 3:1 on
    /// the paper and lighter than a stroke), so a share never reads as a finished stroke.
    static func partialStroke(at x: Double, pixels: UInt64, unit: UInt64) -> Mark {
        let (x0, x1) = (x - Metrics.pen / 2, x + Metrics.pen / 2)
        let (y0, y1) = (Metrics.floor - Double(pixels), Metrics.floor)
        return Mark(
            kind: .progress, unit: unit, color: .c1, width: 0,
            segments: [
                Segment(x0, y0, x1, y0), Segment(x1, y0, x1, y1), Segment(x1, y1, x0, y1), Segment(x0, y1, x0, y0),
            ],
            opacity: Proportions.progressOpacity)
    }

    /// The rest of the partial slot above its bar, in dots a pixel tall, a pixel apart, on the
    /// rows a slot's dots always take (from y = 5, every other row: the floor dot's row too),
    /// leaving at least a pixel clear above the bar: the whole slot and its share both show
    /// (SPEC §2, "Readable at a glance"), and bar and dots together stay under a stroke's ink.
    static func dotsAbove(x: Double, pixels: UInt64) -> [Segment] {
        let barTop = Metrics.floor - Double(pixels)
        var segments: [Segment] = []
        var y = Metrics.top
        while y + 2 <= barTop {
            segments.append(Segment(x, y, x, y + 1))
            y += 2
        }
        return segments
    }
}
