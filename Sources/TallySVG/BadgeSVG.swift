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
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"")
        ids.append(to: &out)
        out.append("\" width=\"")
        out.append(badge.width * scale, digits: 2, leadingZero: false)
        out.append("\" height=\"")
        out.append(badge.height * scale, digits: 2, leadingZero: false)
        out.append("\" viewBox=\"0 0 ")
        out.append(badge.width, digits: 2, leadingZero: false)
        out.append(" ")
        out.append(badge.height, digits: 2, leadingZero: false)
        out.append("\" role=\"img\" aria-label=\"\(title)\" data-count=\"")
        out.append(integer: badge.count.value)
        out.append("\">\n<title>\(title)</title>\n<style>")
        // Butt caps and mitred joins: every pen is 1 px on pixel centres, every end on an edge.
        ids.appendScope(to: &out)
        out.append("path{fill:none;stroke-linecap:butt;stroke-linejoin:miter}")
        let marks = appearance.badgeMarks(badge.marks, plates: plates)
        let classes = MarkClasses(marks)
        func appendColors(dark: Bool, withPens: Bool) {
            for role in Badge.Role.allCases where badge.shapes.contains(where: { $0.role == role }) {
                ids.appendScope(to: &out)
                let color = appearance.badgeColor(role, dark: dark, plates: plates)
                var opaque = color
                opaque.alpha = 255
                out.append(".\(role.rawValue){fill:\(opaque.css)")
                if color.alpha != 255 {
                    out.append(";fill-opacity:")
                    out.append(Double(color.alpha) / 255, digits: 2, leadingZero: false)
                }
                out.append("}")
            }
            let palette = appearance.badgeMarkPalette(dark: dark, plates: plates)
            for rule in classes.rules {
                let paint = rule.isFilled ? "fill" : "stroke"
                ids.appendScope(to: &out)
                rule.appendSelector(to: &out)
                out.append("{\(paint):\(palette[rule.color].css)")
                if withPens {
                    if !rule.isFilled, let width = rule.width {
                        out.append(";stroke-width:")
                        out.append(width, digits: 2, leadingZero: false)
                    }
                    if let opacity = rule.opacity, opacity != 1 {
                        out.append(";\(paint)-opacity:")
                        out.append(opacity, digits: 3, leadingZero: false)
                    }
                }
                out.append("}")
            }
        }
        appendColors(dark: appearance.theme == .dark, withPens: true)
        if appearance.theme == .auto {
            out.append("@media (prefers-color-scheme:dark){")
            appendColors(dark: true, withPens: false)
            out.append("}")
        }
        out.append("</style>\n")
        for shape in badge.shapes where !shape.contours.isEmpty {
            out.append("<path class=\"\(shape.role.rawValue)\" d=\"")
            for contour in shape.contours { appendContour(&out, contour) }
            out.append("\"/>\n")
        }
        for mark in marks {
            out.append(literal: "<path class=\"")
            classes.appendName(of: mark, to: &out)
            out.append(literal: "\" d=\"")
            appendPathData(&out, mark, digits: 2)
            out.append(literal: "\"/>\n")
        }
        out.append("</svg>\n")
        return ids.finish(out)
    }

    /// A closed contour as path data: `M`, then `L` or `Q` for each segment, then `Z`.
    private static func appendContour(_ out: inout TextBuffer, _ contour: [Segment]) {
        guard let first = contour.first else { return }
        out.append(byte: UInt8(ascii: "M"))
        appendPair(&out, first.start)
        for segment in contour {
            if let control = segment.control {
                out.append(byte: UInt8(ascii: "Q"))
                appendPair(&out, control)
                out.append(byte: UInt8(ascii: " "))
            } else {
                out.append(byte: UInt8(ascii: "L"))
            }
            appendPair(&out, segment.end)
        }
        out.append(byte: UInt8(ascii: "Z"))
    }

    private static func appendPair(_ out: inout TextBuffer, _ point: Point) {
        out.append(point.x, digits: 2, leadingZero: false)
        out.append(byte: UInt8(ascii: " "))
        out.append(point.y, digits: 2, leadingZero: false)
    }
}
