import TallyBadge
import TallyEncoding
import TallyGeometry
import TallyStyle

extension SVGRenderer {
    /// A badge as SVG (SPEC §7): plates and text as filled paths (no `<text>`, so no font is
    /// needed to draw it), the strip's marks as pens, `role="img"` with the accessible name.
    ///
    /// The `viewBox` is the badge in pixels at scale 1; `width` and `height` are those times
    /// `scale`. Under `--theme auto` both palettes are written and the viewer's colour scheme
    /// picks one, as for a tally.
    ///
    /// The root id is `id` where a caller gives one, else `badge-` and a digest of the badge
    /// (`SVGIDs`), and every style rule is scoped under it, so a dark badge and a light one
    /// can share a page (SPEC §2, "Inline-safe SVG").
    ///
    /// `plates` are the colours given with `--color` and `--label-color`; a given colour is the
    /// same in both schemes, and the text and marks on it are chosen for their contrast
    /// (`Appearance.badgeColor(_:dark:plates:)`, `badgeMarkPalette(dark:plates:)`). A shadow's
    /// 30% is written as `fill-opacity:.3`.
    package static func badge(
        _ badge: Badge, appearance: Appearance, scale: Double, id: String? = nil, plates: BadgePlates = BadgePlates()
    ) -> [UInt8] {
        var ids = SVGIDs(explicit: id, prefix: "badge-")
        let title = XMLText.escaped(badge.title)
        var out = TextBuffer(capacity: 8192)
        out.append(literal: "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"")
        ids.append(to: &out)
        out.append(literal: "\" width=\"")
        out.append(badge.width * scale, digits: 2, leadingZero: false)
        out.append(literal: "\" height=\"")
        out.append(badge.height * scale, digits: 2, leadingZero: false)
        out.append(literal: "\" viewBox=\"0 0 ")
        out.append(badge.width, digits: 2, leadingZero: false)
        out.append(literal: " ")
        out.append(badge.height, digits: 2, leadingZero: false)
        // Appended piece by piece: an interpolated String costs an allocation and a copy, and a
        // server writes a badge a request.
        out.append(literal: "\" role=\"img\" aria-label=\"")
        out.append(title)
        out.append(literal: "\" data-count=\"")
        out.append(integer: badge.count.value)
        out.append(literal: "\">\n<title>")
        out.append(title)
        out.append(literal: "</title>\n<style>")
        // Butt caps and mitred joins: every pen is 1 px on pixel centres, every end on an edge.
        // Only the badge's own paths (its children): a glyph's path in <defs> has no fill of its
        // own, so it takes the colour of the <use> that places it.
        out.append(byte: UInt8(ascii: "#"))
        ids.append(to: &out)
        out.append(literal: ">path{fill:none;stroke-linecap:butt;stroke-linejoin:miter}")
        let marks = appearance.badgeMarks(badge.marks, plates: plates)
        let classes = MarkClasses(marks)
        // Under `--theme auto` the dark rules follow in a media query: only those whose colour
        // differs from the light one's (a label plate is #555 in both).
        func appendColors(dark: Bool, withPens: Bool, onlyChanged: Bool = false) {
            for role in Badge.Role.allCases where badge.shapes.contains(where: { $0.role == role }) {
                let color = appearance.badgeColor(role, dark: dark, plates: plates)
                if onlyChanged && color == appearance.badgeColor(role, dark: false, plates: plates) { continue }
                ids.appendScope(to: &out)
                var opaque = color
                opaque.alpha = 255
                out.append(byte: UInt8(ascii: "."))
                out.append(role.rawValue)
                out.append(literal: "{fill:")
                out.append(opaque.css)
                if color.alpha != 255 {
                    out.append(literal: ";fill-opacity:")
                    out.append(Double(color.alpha) / 255, digits: 2, leadingZero: false)
                }
                out.append(literal: "}")
            }
            let palette = appearance.badgeMarkPalette(dark: dark, plates: plates)
            let light = appearance.badgeMarkPalette(dark: false, plates: plates)
            for rule in classes.rules {
                if onlyChanged && palette[rule.color] == light[rule.color] { continue }
                let paint = rule.isFilled ? "fill" : "stroke"
                ids.appendScope(to: &out)
                rule.appendSelector(to: &out)
                out.append(byte: UInt8(ascii: "{"))
                out.append(paint)
                out.append(byte: UInt8(ascii: ":"))
                out.append(palette[rule.color].css)
                if withPens {
                    if !rule.isFilled, let width = rule.width {
                        out.append(literal: ";stroke-width:")
                        out.append(width, digits: 2, leadingZero: false)
                    }
                    if let opacity = rule.opacity, opacity != 1 {
                        out.append(byte: UInt8(ascii: ";"))
                        out.append(paint)
                        out.append(literal: "-opacity:")
                        out.append(opacity, digits: 3, leadingZero: false)
                    }
                }
                out.append(literal: "}")
            }
        }
        appendColors(dark: appearance.theme == .dark, withPens: true)
        if appearance.theme == .auto {
            out.append(literal: "@media (prefers-color-scheme:dark){")
            appendColors(dark: true, withPens: false, onlyChanged: true)
            out.append(literal: "}")
        }
        out.append(literal: "</style>\n")
        // An outline two shapes share (a text and its shadow) is written once, in <defs>, and
        // placed by <use>, each in its role's colour: the glyph path's fill inherits it.
        // By the first shape's index (an array of arrays of contours would be one more generic
        // type for the runtime to make in every render).
        var shared: [Int] = []
        for (index, shape) in badge.shapes.enumerated() where !shape.contours.isEmpty {
            guard !shared.contains(where: { badge.shapes[$0].contours == shape.contours }) else { continue }
            if badge.shapes.contains(where: { $0.role != shape.role && $0.contours == shape.contours }) {
                shared.append(index)
            }
        }
        if !shared.isEmpty {
            out.append(literal: "<defs>")
            for (number, index) in shared.enumerated() {
                let contours = badge.shapes[index].contours
                out.append(literal: "<path id=\"")
                ids.append(to: &out)
                out.append(literal: "-g")
                out.append(integer: UInt64(number))
                out.append(literal: "\" transform=\"scale(.04)\" d=\"")
                appendContours(&out, contours)
                out.append(literal: "\"/>")
            }
            out.append(literal: "</defs>\n")
        }
        for shape in badge.shapes where !shape.contours.isEmpty {
            if let number = shared.firstIndex(where: { badge.shapes[$0].contours == shape.contours }) {
                out.append(literal: "<use href=\"#")
                ids.append(to: &out)
                out.append(literal: "-g")
                out.append(integer: UInt64(number))
                out.append(byte: UInt8(ascii: "\""))
                if shape.offset != 0 {
                    out.append(literal: " y=\"")
                    out.append(shape.offset, digits: 2, leadingZero: false)
                    out.append(literal: "\"")
                }
                out.append(literal: " class=\"")
                out.append(shape.role.rawValue)
                out.append(literal: "\"/>\n")
            } else {
                out.append(literal: "<path class=\"")
                out.append(shape.role.rawValue)
                out.append(literal: "\" transform=\"scale(.04)\" d=\"")
                appendContours(&out, shape.placedContours)
                out.append(literal: "\"/>\n")
            }
        }
        for mark in marks {
            out.append(literal: "<path class=\"")
            classes.appendName(of: mark, to: &out)
            out.append(literal: "\" d=\"")
            appendPathData(&out, mark, digits: 2)
            out.append(literal: "\"/>\n")
        }
        out.append(literal: "</svg>\n")
        return ids.finish(out)
    }

    /// Grid points a pixel that a text's outline is written on (the path scaled by `1 / glyphGrid`,
    /// `scale(.04)`): whole numbers, where hundredths of a pixel wrote a point and two digits for
    /// most steps of a glyph. Every point lands within 0.02 px of its place (0.005 at hundredths),
    /// a twenty-fifth of a device pixel at 2×; the outlines of `badge 1234 --label downloads` went
    /// from 2,985 to about 2,160 bytes, the badge to 4,082 (BENCHMARKS.md, "Badge bytes and a
    /// drawn badge"; a 1/50 grid left it at 4,130).
    static let glyphGrid: Double = 25

    /// Closed contours as path data in relative steps of whole units of `1 / glyphGrid` pixel,
    /// for a path scaled by `scale(.04)`: `m` to each contour's start, then `h`, `v`, `l`, `q` or
    /// `t` for each segment, and `z` (a last line back to the start is the `z`). Each step is the
    /// difference of two coordinates already rounded, so every point lands on the grid point
    /// nearest its place, whatever came before it.
    private static func appendContours(_ out: inout TextBuffer, _ contours: [[Segment]]) {
        func units(_ value: Double) -> Int64 {
            let whole = Int64(abs(value * glyphGrid) + 0.5)
            return value < 0 ? -whole : whole
        }
        var (x, y): (Int64, Int64) = (0, 0)
        for contour in contours {
            guard let first = contour.first else { continue }
            let start = (x: units(first.start.x), y: units(first.start.y))
            out.append(command: UInt8(ascii: "m"), units: start.x - x, start.y - y, digits: 0)
            (x, y) = start
            // The last quadratic's control point, to see whether the next one's is its mirror.
            var lastControl: (x: Int64, y: Int64)? = nil
            let last = contour.count - 1
            for index in contour.indices {
                let segment = contour[index]
                let end = (x: units(segment.end.x), y: units(segment.end.y))
                if let point = segment.control {
                    let control = (x: units(point.x), y: units(point.y))
                    if let last = lastControl, control == (2 * x - last.x, 2 * y - last.y) {
                        // A TrueType outline's implied on-curve point: `t`, the mirrored control.
                        out.append(command: UInt8(ascii: "t"), units: end.x - x, end.y - y, digits: 0)
                    } else {
                        out.append(command: UInt8(ascii: "q"), units: control.x - x, control.y - y, digits: 0)
                        out.append(followingPair: end.x - x, end.y - y, digits: 0)
                    }
                    lastControl = control
                    (x, y) = end
                    continue
                }
                lastControl = nil
                if index == last && end == start {
                    break
                } else if end.y == y {
                    out.append(command: UInt8(ascii: "h"), units: end.x - x, digits: 0)
                } else if end.x == x {
                    out.append(command: UInt8(ascii: "v"), units: end.y - y, digits: 0)
                } else {
                    out.append(command: UInt8(ascii: "l"), units: end.x - x, end.y - y, digits: 0)
                }
                (x, y) = end
            }
            out.append(byte: UInt8(ascii: "z"))
            (x, y) = start
        }
    }
}
