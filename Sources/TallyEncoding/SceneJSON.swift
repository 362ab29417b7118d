import TallyGeometry

/// The JSON scene of SPEC §5: the geometry itself, the stable interface for other renderers.
///
/// Beyond SPEC's fields, the frame names its `unit` and each mark its pen `width` (layout units),
/// so another renderer can draw exactly what ours draw; a mark that is not opaque (a `progress`
/// fill, a cap over detail) has its `opacity`. With a viewport (a size was given) the scene carries it: the image's size in
/// pixels and the layout box it shows, margin included. One mark a line, so diffs stay readable.
public enum SceneJSON {
    /// The JSON scene of a scene.
    ///
    /// ```swift
    /// let json = SceneJSON.encode(TallyScene(count: 137))
    /// ```
    /// - Parameters:
    ///   - scene: the marks to write.
    ///   - viewport: the image it is planned for, written as `viewport`; nil for none.
    /// - Returns: the JSON text, one mark a line.
    public static func encode(_ scene: TallyScene, viewport: Viewport? = nil) -> String {
        String(decoding: encodedBytes(scene, viewport: viewport), as: UTF8.self)
    }

    /// The same JSON as UTF-8 bytes, for writing out without a detour through `String`.
    public static func encodedBytes(_ scene: TallyScene, viewport: Viewport? = nil) -> [UInt8] {
        var out = TextBuffer(capacity: 128 + scene.marks.count * 96)
        out.append(literal: "{\n  \"count\": ")
        out.append(integer: scene.count.value)
        if let goal = scene.goal {
            out.append(literal: ",\n  \"goal\": ")
            out.append(integer: goal.value)
        }
        out.append(literal: ",\n  \"frame\": {\"unit\": ")
        out.append(integer: scene.canvas.level.capacity)
        out.append(literal: ", \"width\": ")
        out.append(scene.canvas.width)
        out.append(literal: ", \"height\": ")
        out.append(scene.canvas.height)
        out.append(literal: "},\n")
        if let viewport {
            let box = viewport.visible
            out.append(literal: "  \"viewport\": {\"pixels\": {\"width\": ")
            out.append(viewport.width, digits: 0)
            out.append(literal: ", \"height\": ")
            out.append(viewport.height, digits: 0)
            out.append(literal: "}, \"box\": {\"x\": ")
            out.append(box.minX)
            out.append(literal: ", \"y\": ")
            out.append(box.minY)
            out.append(literal: ", \"width\": ")
            out.append(box.width)
            out.append(literal: ", \"height\": ")
            out.append(box.height)
            out.append(literal: "}},\n")
        }
        out.append(literal: "  \"marks\": [")
        for (index, mark) in scene.marks.enumerated() {
            if index == 0 { out.append(literal: "\n    ") } else { out.append(literal: ",\n    ") }
            append(mark, to: &out)
        }
        if scene.marks.isEmpty { out.append(literal: "]\n}\n") } else { out.append(literal: "\n  ]\n}\n") }
        return out.bytes
    }

    /// One mark; a bowed segment (the ink style) has six numbers: start, control, end.
    static func append(_ mark: Mark, to out: inout TextBuffer) {
        out.append(literal: "{\"kind\": \"")
        out.append(mark.kind.rawValue)
        out.append(literal: "\", \"unit\": ")
        out.append(integer: mark.unit)
        out.append(literal: ", \"color\": \"")
        out.append(mark.color.rawValue)
        out.append(literal: "\", \"width\": ")
        out.append(mark.width)
        if mark.opacity != 1 {
            out.append(literal: ", \"opacity\": ")
            out.append(mark.opacity)
        }
        if mark.lens { out.append(literal: ", \"lens\": true") }
        out.append(literal: ", \"segments\": [")
        for (index, segment) in mark.segments.enumerated() {
            if index == 0 { out.append(byte: UInt8(ascii: "[")) } else { out.append(literal: ", [") }
            append(segment.start, to: &out)
            if let control = segment.control {
                out.append(literal: ", ")
                append(control, to: &out)
            }
            out.append(literal: ", ")
            append(segment.end, to: &out)
            out.append(literal: "]")
        }
        out.append(literal: "]}")
    }

    private static func append(_ point: Point, to out: inout TextBuffer) {
        out.append(point.x)
        out.append(literal: ", ")
        out.append(point.y)
    }
}

/// `tally describe --json`: the structure of a count as data.
public enum DescriptionJSON {
    /// - Parameters:
    ///   - frame: a pinned frame (`--frame`); nil, or one too small, for the count's own.
    ///   - goal: a goal (`--of`): the title says the progress toward it, `of` and `percent` (a
    ///     whole number, rounded down) are added, and the frame is the goal's when that is larger.
    public static func encode(_ count: TallyCount, frame pinned: UnitLevel? = nil, goal: TallyCount? = nil) -> String {
        let own = UnitLevel.frame(for: goal.map { max($0, count) } ?? count)
        let frame = max(pinned ?? own, own)
        let structure = Words.structure(of: count).map { part in
            JSONText.object([
                ("unit", String(part.level.capacity)),
                ("name", JSONText.string(part.level.name)),
                ("count", String(part.count)),
            ])
        }
        var fields = [("count", String(count.value))]
        if let goal {
            fields += [("of", String(goal.value)), ("percent", Words.percentDigits(count, of: goal))]
        }
        return JSONText.object(
            fields + [
                ("title", JSONText.string(Words.title(for: count, goal: goal))),
                ("description", JSONText.string(Words.description(for: count))),
                ("frame", JSONText.object([("unit", String(frame.capacity)), ("name", JSONText.string(frame.name))])),
                ("structure", JSONText.array(structure)),
            ]) + "\n"
    }
}
