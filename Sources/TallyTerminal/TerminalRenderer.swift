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

    /// The colour of a token; nil for the terminal's default foreground.
    func color(_ token: ColorToken) -> RGBA? {
        switch self {
        case .theme(let palette): palette[token]
        case .anyBackground: Self.midTones[token]
        }
    }
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
        for (index, mark) in scene.marks.enumerated() where mark.kind != .caption {
            if mark.kind.isFilled {
                // A fill is closed rectangles: light every dot whose centre is inside one.
                for rect in stride(from: 0, to: mark.segments.count - 3, by: 4).map({ mark.segments[$0..<($0 + 4)] }) {
                    let points = rect.map { pixel($0.start) }
                    let xs = points.map(\.0)
                    let ys = points.map(\.1)
                    let x0 = max(0, Int((xs.min()! - 0.5).rounded(.up)))
                    let x1 = min(span - 1, Int((xs.max()! - 0.5).rounded(.down)))
                    let y0 = max(0, Int((ys.min()! - 0.5).rounded(.up)))
                    let y1 = min(rows * 4 - 1, Int((ys.max()! - 0.5).rounded(.down)))
                    guard x0 <= x1, y0 <= y1 else { continue }
                    for y in y0...y1 { for x in x0...x1 { dots[y * span + x] = index + 1 } }
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
            var current: ColorToken?
            for column in 0..<columns {
                var pattern: UInt32 = 0
                var votes: [ColorToken: Int] = [:]
                for dy in 0..<4 {
                    for dx in 0..<2 {
                        let markIndex = dots[(row * 4 + dy) * span + column * 2 + dx]
                        guard markIndex > 0 else { continue }
                        pattern |= bits[dy][dx]
                        votes[scene.marks[markIndex - 1].color, default: 0] += 1
                    }
                }
                if colors != .none, pattern != 0 {
                    // The colour most dots have; ties go to the first token (c1 before the rest).
                    let token = ColorToken.allCases.max { (votes[$0] ?? 0) < (votes[$1] ?? 0) }!
                    if token != current {
                        out += palette.color(token).map { escape($0, colors) } ?? "\u{1B}[39m"
                        current = token
                    }
                }
                out.unicodeScalars.append(Unicode.Scalar(0x2800 + pattern)!)
            }
            if colors != .none && current != nil { out += "\u{1B}[0m" }
            out += "\n"
        }
        return out
    }

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
