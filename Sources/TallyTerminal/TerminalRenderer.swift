import TallyGeometry
import TallyStyle

/// The colours a preview is drawn in: a palette for a terminal whose background is known, or,
/// where it is not, the terminal's own foreground for ink and colours that read on any
/// background.
package enum TerminalPalette: Sendable, Equatable {
    /// The theme's palette, for a background known to be light or dark.
    case theme(Palette)
    /// Ink (`c1`) in the terminal's default foreground (SGR 39), which its user chose to read on
    /// its background; the other tokens in mid tones at least 3:1 on white and on a #1E1E1E
    /// terminal alike (SPEC §6).
    case anyBackground

    /// The mid tones of `anyBackground`: each between 3:1 on white and 3:1 on #1E1E1E.
    package static let midTones: [ColorToken: RGBA] = [
        .c2: RGBA(hex: 0x8A8A8A), .c3: RGBA(hex: 0x747474), .accent: RGBA(hex: 0xD94033),
    ]

    /// The tone of a progress wash on a terminal whose background is not known: a grey as far
    /// from white as from #1E1E1E (about 4.1:1 on each), so it meets 3:1 on both like the mid
    /// tones while it is fainter than the ink, the terminal's own foreground (SPEC §2, "Weight
    /// follows quantity"). No grey is fainter than both mid tones on both backgrounds: the
    /// product of a grey's two ratios is the same for every grey.
    package static let anyBackgroundWash = RGBA(hex: 0x7D7D7D)

    /// The colour of a tone; nil for the terminal's default foreground.
    func color(_ tone: TerminalTone) -> RGBA? {
        switch (self, tone) {
        case (.theme(let palette), .token(let token)): palette[token]
        case (.anyBackground, .token(let token)): Self.midTones[token]
        case (.theme(let palette), .wash): Self.washTone(palette)
        case (.anyBackground, .wash): Self.anyBackgroundWash
        }
    }

    /// A progress wash's tone under a known theme: the ink (`c1`) at the wash edge's opacity
    /// (`Proportions.progressOpacity`) over the theme's paper, the colour the images give the
    /// edge: the faintest mark, still 3:1 on the paper (SPEC §2, "Contrast").
    package static func washTone(_ palette: Palette) -> RGBA {
        let (ink, paper) = (palette[.c1], palette.paper)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) * Proportions.progressOpacity + Double(b) * (1 - Proportions.progressOpacity)).rounded())
        }
        return RGBA(red: mix(ink.red, paper.red), green: mix(ink.green, paper.green), blue: mix(ink.blue, paper.blue))
    }
}

/// What a dot of the preview is drawn in: a mark's colour role, or the fainter tone of a
/// progress wash.
package enum TerminalTone: Hashable, Sendable {
    /// The colour of a role (SPEC §3).
    case token(ColorToken)
    /// A progress wash's tint and edge: fainter than every finished mark's ink.
    case wash

    /// Every tone in the order ties are broken: the roles as declared (`c1` first), the wash
    /// last.
    static let all: [TerminalTone] = ColorToken.allCases.map(TerminalTone.token) + [.wash]
}

/// How a terminal preview is coloured.
package enum TerminalColors: Sendable, Equatable {
    /// Plain characters, no escape sequences.
    case none
    /// 256-colour escapes (`ESC[38;5;Nm`), for terminals that do not say they take 24-bit colour.
    case palette256
    /// 24-bit escapes (`ESC[38;2;R;G;Bm`).
    case trueColor
}

/// `-f term`: a scene drawn in Unicode braille cells, for a look without leaving the terminal.
///
/// Braille rather than quadrant blocks: a braille cell holds 2 × 4 dots, and as a terminal cell
/// is about twice as tall as it is wide, each dot is square, so the scene's proportions, its
/// whole-pixel placement and its level of detail are those of an image of 2 × columns pixels.
/// Quadrant blocks give 2 × 2 taller-than-wide pixels: half the resolution down, and strokes
/// twice as thick across as down. A tally is thin lines on paper, which braille's separate dots
/// draw well.
///
/// Each dot is lit where a mark's pen or fill covers its centre, in the colour of the topmost
/// mark there; a cell takes the colour most of its dots have. The terminal's own background
/// stays: only the marks are coloured. Rows with no dot lit above and below the marks are left
/// out, and a caption is not drawn in dots: the caller prints it as text.
///
/// A dot is as heavy as a pen here, so a progress wash cannot be a tint of every dot it covers:
/// lit solid, a unit nearly full was the heaviest thing in the preview (80 dots against a
/// finished sibling's 44). Its tint lights the two long sides of the share it covers, solid,
/// and one dot in `washDotPeriod` each way inside it, from the first dot of its share; its edge (the
/// last covered dot of each line) is lit whole. So the filled part is a bar drawn in solid
/// lines against the cell's empty part, marked by single dots about three apart: lit only on
/// the sparse lattice, the two differed by their dots' spacing alone, at 40 columns one part
/// of a row could not be told from the other. Both are drawn in the wash's own tone, fainter
/// than the ink (`TerminalTone.wash`), and the two sides are no longer than half a finished
/// sibling's box, so a partial unit never carries more dots than a complete sibling
/// (SPEC §2, "Weight follows quantity").
package enum TerminalRenderer {
    /// The preview of a scene planned for a viewport of `2 × columns` pixels across: one line of
    /// cells per 4 pixel rows, each line ended by a newline (and a colour reset when coloured).
    package static func render(
        _ scene: TallyScene, viewport: Viewport, palette: TerminalPalette, colors: TerminalColors
    ) -> String {
        let width = Int(viewport.width.rounded())
        let height = Int(viewport.height.rounded())
        let columns = (width + 1) / 2
        let rows = (height + 3) / 4
        // The index + 1 of the mark lighting each dot, 0 for none.
        var dots = [Int](repeating: 0, count: columns * 2 * rows * 4)
        let span = columns * 2
        let ppu = viewport.pixelsPerUnit
        let box = viewport.visible
        func pixel(_ point: Point) -> (Double, Double) {
            ((point.x - box.minX) * ppu, (point.y - box.minY) * ppu)
        }
        // The rectangles each wash (a `progress` mark) covers, in dots, by the unit it fills.
        var washes: [(unit: UInt64, x0: Double, x1: Double, y0: Double, y1: Double)] = []
        for mark in scene.marks where mark.kind == .progress {
            for first in stride(from: 0, to: mark.segments.count - 3, by: 4) {
                let points = mark.segments[first..<(first + 4)].map { pixel($0.start) }
                let (xs, ys) = (points.map(\.0), points.map(\.1))
                washes.append((mark.unit, xs.min()!, xs.max()!, ys.min()!, ys.max()!))
            }
        }
        for (index, mark) in scene.marks.enumerated() where mark.kind != .caption {
            if mark.kind.isFilled {
                // A fill is closed rectangles: light every dot whose centre is inside one; a tint
                // only the dots of its lattice, counted from its first rectangle's top left (the
                // cell's first pixel in fill order), so its first line always shows.
                var tintOrigin: (x: Int, y: Int)?
                for rect in stride(from: 0, to: mark.segments.count - 3, by: 4).map({ mark.segments[$0..<($0 + 4)] }) {
                    let points = rect.map { pixel($0.start) }
                    let xs = points.map(\.0)
                    let ys = points.map(\.1)
                    let x0 = max(0, Int((xs.min()! - 0.5).rounded(.up)))
                    let x1 = min(span - 1, Int((xs.max()! - 0.5).rounded(.down)))
                    let y0 = max(0, Int((ys.min()! - 0.5).rounded(.up)))
                    let y1 = min(rows * 4 - 1, Int((ys.max()! - 0.5).rounded(.down)))
                    guard x0 <= x1, y0 <= y1 else { continue }
                    let origin = tintOrigin ?? (x0, y0)
                    tintOrigin = origin
                    // The share's two long sides, solid: a bar, against the empty part's dots.
                    let wide = x1 - x0 >= y1 - y0
                    for y in y0...y1 {
                        for x in x0...x1
                        where mark.kind != .progress || (wide ? y == y0 || y == y1 : x == x0 || x == x1)
                            || ((x - origin.x) % washDotPeriod == 0 && (y - origin.y) % washDotPeriod == 0)
                        {
                            dots[y * span + x] = index + 1
                        }
                    }
                }
                continue
            }
            if mark.kind.isDashed {
                // A dotted outline: one dot in three along each side, as its dashes are; none over
                // the share a wash of its unit covers, whose bar is drawn there (SPEC §2, "Weight
                // follows quantity": the cell's dots mark its empty part, as a wash's did).
                let covered = washes.filter { $0.unit == mark.unit }
                for segment in mark.segments {
                    let (ax, ay) = pixel(segment.start)
                    let (bx, by) = pixel(segment.end)
                    let length = max(abs(bx - ax), abs(by - ay))
                    let steps = Int((length / 3).rounded(.down))
                    for step in 0...max(0, steps) {
                        let t = length > 0 ? Double(step * 3) / length : 0
                        let x = Int((ax + t * (bx - ax)).rounded(.down))
                        let y = Int((ay + t * (by - ay)).rounded(.down))
                        guard x >= 0, x < span, y >= 0, y < rows * 4 else { continue }
                        let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
                        if covered.contains(where: { cx >= $0.x0 && cx <= $0.x1 && cy >= $0.y0 && cy <= $0.y1 }) {
                            continue
                        }
                        dots[y * span + x] = index + 1
                    }
                }
                continue
            }
            // A pen: every dot whose centre is within half the pen (at least half a dot) of the path.
            let radius = max(mark.width * ppu / 2, 0.5)
            for segment in mark.segments {
                let (ax, ay) = pixel(segment.start)
                let (bx, by) = pixel(segment.end)
                let x0 = max(0, Int((min(ax, bx) - radius - 0.5).rounded(.up)))
                let x1 = min(span - 1, Int((max(ax, bx) + radius - 0.5).rounded(.down)))
                let y0 = max(0, Int((min(ay, by) - radius - 0.5).rounded(.up)))
                let y1 = min(rows * 4 - 1, Int((max(ay, by) + radius - 0.5).rounded(.down)))
                guard x0 <= x1, y0 <= y1 else { continue }
                let (dx, dy) = (bx - ax, by - ay)
                let lengthSquared = dx * dx + dy * dy
                for y in y0...y1 {
                    for x in x0...x1 {
                        let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                        let t =
                            lengthSquared > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / lengthSquared)) : 0
                        let (cx, cy) = (ax + t * dx - px, ay + t * dy - py)
                        if cx * cx + cy * cy <= radius * radius { dots[y * span + x] = index + 1 }
                    }
                }
            }
        }
        // Braille dot bits by position in the cell: (column, row) → bit.
        let bits: [[UInt32]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
        var out = ""
        func lit(_ row: Int) -> Bool { dots[(row * 4 * span)..<((row + 1) * 4 * span)].contains { $0 > 0 } }
        let first = (0..<rows).first(where: lit) ?? 0
        let last = (0..<rows).last(where: lit) ?? -1
        for row in first...max(first, last) where last >= 0 {
            var current: TerminalTone?
            for column in 0..<columns {
                var pattern: UInt32 = 0
                var votes: [TerminalTone: Int] = [:]
                for dy in 0..<4 {
                    for dx in 0..<2 {
                        let markIndex = dots[(row * 4 + dy) * span + column * 2 + dx]
                        guard markIndex > 0 else { continue }
                        pattern |= bits[dy][dx]
                        let mark = scene.marks[markIndex - 1]
                        votes[mark.kind.isFilled || mark.kind.isDashed ? .wash : .token(mark.color), default: 0] += 1
                    }
                }
                if colors != .none, pattern != 0 {
                    // The tone most dots have; ties go to the first (c1 before the rest, the wash last).
                    let tone = TerminalTone.all.max { (votes[$0] ?? 0) < (votes[$1] ?? 0) }!
                    if tone != current {
                        out += palette.color(tone).map { escape($0, colors) } ?? "\u{1B}[39m"
                        current = tone
                    }
                }
                out.unicodeScalars.append(Unicode.Scalar(0x2800 + pattern)!)
            }
            if colors != .none && current != nil { out += "\u{1B}[0m" }
            out += "\n"
        }
        return out
    }

    /// A progress wash's tint lights one dot in this many each way, so a unit nearly full
    /// carries fewer dots than a finished sibling (SPEC §2, "Weight follows quantity").
    static let washDotPeriod = 8

    /// The escape that sets the foreground to a colour.
    static func escape(_ color: RGBA, _ colors: TerminalColors) -> String {
        let (r, g, b) = (Int(color.red), Int(color.green), Int(color.blue))
        switch colors {
        case .none: return ""
        case .trueColor: return "\u{1B}[38;2;\(r);\(g);\(b)m"
        case .palette256:
            // The nearest of the 6 × 6 × 6 cube and the 24 greys.
            func level(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
            let cube = 16 + 36 * level(r) + 6 * level(g) + level(b)
            let grey = (r + g + b) / 3
            let greyIndex = grey < 8 ? 0 : min(23, (grey - 8) / 10)
            let cubeValues = [0, 95, 135, 175, 215, 255]
            let cubeColor = (cubeValues[level(r)], cubeValues[level(g)], cubeValues[level(b)])
            let greyValue = 8 + 10 * greyIndex
            func distance(_ c: (Int, Int, Int)) -> Int {
                (c.0 - r) * (c.0 - r) + (c.1 - g) * (c.1 - g) + (c.2 - b) * (c.2 - b)
            }
            let useGrey = distance((greyValue, greyValue, greyValue)) < distance(cubeColor)
            return "\u{1B}[38;5;\(useGrey ? 232 + greyIndex : cube)m"
        }
    }
}
