import TallyGeometry

/// The JSON scene of SPEC §5: the geometry itself, the stable interface for other renderers.
///
/// Beyond SPEC's fields, the frame names its `unit` and each mark its pen `width` (layout units),
/// so another renderer can draw exactly what ours draw. One mark a line, so diffs stay readable.
public enum SceneJSON {
    public static func encode(_ scene: Scene) -> String {
        var lines: [String] = []
        lines.append("{")
        lines.append("  \"count\": \(scene.count.value),")
        lines.append("  \"frame\": " + JSONText.object([
            ("unit", String(scene.frame.level.capacity)),
            ("width", DecimalText.fixed(scene.frame.width)),
            ("height", DecimalText.fixed(scene.frame.height)),
        ]) + ",")
        if scene.marks.isEmpty {
            lines.append("  \"marks\": []")
        } else {
            lines.append("  \"marks\": [")
            for (index, mark) in scene.marks.enumerated() {
                let separator = index == scene.marks.count - 1 ? "" : ","
                lines.append("    " + encode(mark) + separator)
            }
            lines.append("  ]")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func encode(_ mark: Mark) -> String {
        let segments = mark.segments.map { segment in
            JSONText.array([segment.start.x, segment.start.y, segment.end.x, segment.end.y].map { DecimalText.fixed($0) })
        }
        return JSONText.object([
            ("kind", JSONText.string(mark.kind.rawValue)),
            ("unit", String(mark.unit)),
            ("color", JSONText.string(mark.color.rawValue)),
            ("width", DecimalText.fixed(mark.width)),
            ("segments", JSONText.array(segments)),
        ])
    }
}

/// `tally describe --json`: the structure of a count as data.
public enum DescriptionJSON {
    public static func encode(_ count: TallyCount) -> String {
        let frame = UnitLevel.frame(for: count)
        let structure = Words.structure(of: count).map { part in
            JSONText.object([
                ("unit", String(part.level.capacity)),
                ("name", JSONText.string(part.level.name)),
                ("count", String(part.count)),
            ])
        }
        return JSONText.object([
            ("count", String(count.value)),
            ("title", JSONText.string(Words.title(for: count))),
            ("description", JSONText.string(Words.description(for: count))),
            ("frame", JSONText.object([("unit", String(frame.capacity)), ("name", JSONText.string(frame.name))])),
            ("structure", JSONText.array(structure)),
        ]) + "\n"
    }
}
