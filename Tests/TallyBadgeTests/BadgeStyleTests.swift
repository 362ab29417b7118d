import TallyBadge
import TallyGeometry
import Testing

/// SPEC §7, "At home beside shields": `--style flat|flat-square|for-the-badge`. The literals are
/// shields.io's (badge-maker's renderers): flat 20 px with 3 px corners and a 1 px text shadow,
/// flat-square 20 px square without one, for-the-badge 28 px square, 10 px capitals spaced
/// 1.25 px, 12 px margins.
@Suite struct BadgeStyleTests {
    func badge(_ count: UInt64, goal: UInt64? = nil, label: String? = "downloads", _ style: BadgeStyle) throws
        -> Badge
    {
        let goal = try goal.map { try #require(TallyCount(exactly: $0)) }
        return try Badge(count: try #require(TallyCount(exactly: count)), goal: goal, label: label, style: style)
    }

    func shape(_ badge: Badge, _ role: Badge.Role) -> Badge.Shape? { badge.shapes.first { $0.role == role } }

    /// The extent of contours, from their points.
    func bounds(_ contours: [[Segment]]) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let points = contours.flatMap { $0.flatMap { [$0.start, $0.end] + ($0.control.map { [$0] } ?? []) } }
        return (
            points.map(\.x).min() ?? 0, points.map(\.x).max() ?? 0, points.map(\.y).min() ?? 0,
            points.map(\.y).max() ?? 0
        )
    }

    @Test(arguments: [(BadgeStyle.flat, 20.0), (.flatSquare, 20), (.forTheBadge, 28)])
    func heightsAreShields(_ style: BadgeStyle, _ height: Double) throws {
        for label in [nil, "downloads"] as [String?] {
            let badge = try badge(1234, label: label, style)
            #expect(badge.height == height)
            let plate = try #require(shape(badge, .frame))
            let box = bounds(plate.contours)
            #expect(box.maxY == height)
            #expect(box.minY == 0)
        }
    }

    /// Flat's outer corners are rounded (quadratic corners of 3 px); flat-square's and
    /// for-the-badge's plates are rectangles, with no curve at all.
    @Test(arguments: [(BadgeStyle.flat, 3.0), (.flatSquare, 0), (.forTheBadge, 0)])
    func cornersAreShields(_ style: BadgeStyle, _ radius: Double) throws {
        for label in [nil, "downloads"] as [String?] {
            let badge = try badge(99, label: label, style)
            let plates = badge.shapes.filter { [.frame, .labelPlate, .valuePlate].contains($0.role) }
            let curves = plates.flatMap { $0.contours.flatMap { $0 } }.filter { $0.control != nil }
            if radius == 0 {
                #expect(curves.isEmpty, "\(style): \(curves.count) rounded corners")
            } else {
                // The outer frame's or label plate's corners: each curve spans the radius.
                let outer = try #require(shape(badge, label == nil ? .frame : .labelPlate))
                let corner = try #require(outer.contours.flatMap { $0 }.first { $0.control != nil })
                let (dx, dy) = (abs(corner.end.x - corner.start.x), abs(corner.end.y - corner.start.y))
                #expect(dx == radius)
                #expect(dy == radius)
            }
        }
    }

    /// Flat draws each text over its shadow: the same contours 1 px lower, drawn before it.
    /// The other styles have none.
    @Test(arguments: BadgeStyle.allCases)
    func onlyFlatHasAShadowUnderEachText(_ style: BadgeStyle) throws {
        let badge = try badge(1234, label: "downloads", style)
        let roles = badge.shapes.map(\.role)
        let shadows = roles.filter { $0 == .labelShadow || $0 == .valueShadow }
        guard style == .flat else {
            #expect(shadows.isEmpty, "\(style)")
            return
        }
        #expect(shadows == [.labelShadow, .valueShadow])
        for (shadow, text) in [(Badge.Role.labelShadow, Badge.Role.labelText), (.valueShadow, .valueText)] {
            let s = try #require(shape(badge, shadow))
            let t = try #require(shape(badge, text))
            let sIndex = try #require(roles.firstIndex(of: shadow))
            let tIndex = try #require(roles.firstIndex(of: text))
            #expect(sIndex < tIndex, "the shadow is under its text")
            let moved = t.contours.map {
                $0.map {
                    Segment(
                        Point($0.start.x, $0.start.y + 1), Point($0.end.x, $0.end.y + 1),
                        control: $0.control.map { Point($0.x, $0.y + 1) })
                }
            }
            #expect(s.placedContours == moved && t.offset == 0 && s.offset == 1)
        }
    }

    /// for-the-badge writes capitals spaced 1.25 px: the label plate is the capitals' advances
    /// at 10 px, plus 1.25 px between each two letters, plus 12 px each side, rounded up; its
    /// text is 10 px (DejaVu Sans' capitals are 1,493 of 2,048 units tall: 7.29 px).
    @Test func forTheBadgeUpperCasesAndSpacesLetters() throws {
        let badge = try badge(1234, label: "downloads", .forTheBadge)
        let plate = try #require(shape(badge, .labelPlate))
        let letters = "DOWNLOADS"
        let expected = (24 + BadgeFont.width(of: letters, size: 10) + 1.25 * Double(letters.count - 1)).rounded(.up)
        #expect(bounds(plate.contours).maxX == expected)
        #expect(badge.label == "downloads", "the accessible name keeps the label as given")
        let text = bounds(try #require(shape(badge, .labelText)).contours)
        // On the baseline at y = 18 (O and S overshoot it by a fraction of a pixel), and 10 px
        // capitals, 7.29 px tall and the overshoots; 11 px ones would be 8.02 and more.
        let textHeight: Double = text.maxY - text.minY
        #expect(text.maxY > 17.9, "\(text.maxY)")
        #expect(text.maxY < 18.3, "\(text.maxY)")
        #expect(textHeight > 7.2, "\(textHeight) px tall")
        #expect(textHeight < 7.8, "\(textHeight) px tall")
        // The same label in flat is lower case at 11 px, unspaced.
        let flat = try #require(shape(try self.badge(1234, label: "downloads", .flat), .labelPlate))
        #expect(bounds(flat.contours).maxX == (12 + BadgeFont.width(of: "downloads", size: 11)).rounded(.up))
    }

    /// A capital that is two letters is both (ß is SS), spaced as two.
    @Test func capitalsMayBeLonger() throws {
        let sharp = try badge(5, label: "ß", .forTheBadge)
        let plate = try #require(shape(sharp, .labelPlate))
        let expected = (24 + BadgeFont.width(of: "SS", size: 10) + 1.25).rounded(.up)
        #expect(bounds(plate.contours).maxX == expected)
    }

    /// for-the-badge's strip is flat's, moved down whole pixels (4) so its icon box, y = 9 to 18,
    /// is centred in the 28 px plate within half a pixel and its pens stay on pixel centres.
    @Test(arguments: [9, 99, 1234, 12_345] as [UInt64])
    func forTheBadgeCentresTheStrip(_ count: UInt64) throws {
        let flat = try badge(count, label: nil, .flat)
        let tall = try badge(count, label: nil, .forTheBadge)
        #expect(flat.marks.count == tall.marks.count)
        var ys: [Double] = []
        for (a, b) in zip(flat.marks, tall.marks) {
            #expect(a.segments.count == b.segments.count)
            for (s, t) in zip(a.segments, b.segments) {
                let (startMoved, endMoved): (Double, Double) = (t.start.y - s.start.y, t.end.y - s.end.y)
                #expect(startMoved == 4)
                #expect(endMoved == 4)
                ys += [t.start.y, t.end.y]
            }
        }
        let (top, bottom) = (try #require(ys.min()), try #require(ys.max()))
        #expect(top >= 9)
        #expect(bottom <= 18)
        let centre: Double = (top.rounded(.down) + bottom.rounded(.up)) / 2
        #expect(abs(centre - 14) <= 0.5, "the icon box's centre, \(centre)")
    }

    // MARK: - At most 48 px wider than shields

    /// Verdana's advances in thousandths of an em (its AFM widths), which shields measures
    /// with; bold Verdana is wider, so using the regular ones for for-the-badge's bold message
    /// makes shields' badge narrower and this bound stricter.
    static let verdana: [Character: Double] = [
        " ": 351, "%": 1076, ",": 363, ".": 363, "<": 818, ">": 818,
        "0": 635, "1": 635, "2": 635, "3": 635, "4": 635, "5": 635, "6": 635, "7": 635, "8": 635, "9": 635,
        "a": 600, "c": 520, "g": 623, "v": 591, "C": 698, "V": 683, "B": 685, "H": 751, "d": 623, "e": 595, "f": 351,
        "i": 274, "k": 591, "l": 274, "n": 632, "o": 606, "r": 426,
        "s": 520, "t": 394, "u": 632, "w": 818,
        "A": 683, "D": 770, "E": 632, "F": 574, "G": 775, "I": 420, "K": 692, "L": 556, "M": 842, "N": 748,
        "O": 787, "P": 603, "R": 695, "S": 683, "T": 616, "U": 731, "W": 988,
    ]

    func verdana(_ text: String, size: Double) throws -> Double {
        try text.reduce(0.0) { $0 + (try #require(Self.verdana[$1], "\($1)")) * size / 1000 }
    }

    /// The width of shields' badge of a label and message, as badge-maker lays it out: flat
    /// and flat-square each text's width (11 px) cut to a whole pixel and rounded up to odd,
    /// plus 5 px each side; for-the-badge each text's width (10 px, capitals) cut to a whole
    /// pixel, plus 1.25 px a letter, plus 12 px each side.
    func shieldsWidth(label: String?, message: String, _ style: BadgeStyle) throws -> Double {
        func odd(_ width: Double) -> Double {
            let whole = width.rounded(.down)
            return whole.truncatingRemainder(dividingBy: 2) == 0 ? whole + 1 : whole
        }
        switch style {
        case .flat, .flatSquare:
            let left = try label.map { try odd(verdana($0, size: 11)) + 10 } ?? 0
            return left + (try odd(verdana(message, size: 11))) + 10
        case .forTheBadge:
            func part(_ text: String) throws -> Double {
                (try verdana(text.uppercased(), size: 10)).rounded(.down) + 1.25 * Double(text.count) + 24
            }
            return (try label.map(part) ?? 0) + (try part(message))
        }
    }

    @Test(arguments: BadgeStyle.allCases)
    func atMostFortyEightPixelsWiderThanShields(_ style: BadgeStyle) throws {
        let counts: [(UInt64, UInt64?)] = [
            (0, nil), (1, nil), (4, nil), (9, nil), (24, nil), (99, nil), (1234, nil), (99_999, nil),
            (1_234_567, nil), (9_223_372_036_854_775_807, nil), (6200, 10_000), (3, 7), (50, 3),
        ]
        for (count, goal) in counts {
            for label in [nil, "downloads", "tests", "coverage"] as [String?] {
                let badge = try badge(count, goal: goal, label: label, style)
                let shields: Double = try shieldsWidth(label: label, message: badge.value, style)
                let limit: Double = shields + 48
                #expect(
                    badge.width <= limit,
                    "\(style) \(count)\(goal.map { " of \($0)" } ?? "") \(label ?? "-"): \(badge.width) px, shields \(shields)"
                )
            }
        }
    }
}
