import TallyGeometry

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SceneJSON {
    /// Why some JSON is not a tally scene, in words that name the field.
    public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, naming the field.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The JSON scene's fields, as SPEC §5 and `Schemas/scene.schema.json` define them.
    private struct File: Decodable {
        struct FrameFields: Decodable {
            let unit: UInt64
            let width: Double
            let height: Double
        }

        struct MarkFields: Decodable {
            let kind: String
            let unit: UInt64
            let color: String
            let width: Double
            let opacity: Double?
            let lens: Bool?
            let segments: [[Double]]
        }

        let count: UInt64
        let goal: UInt64?
        let frame: FrameFields
        let marks: [MarkFields]
    }

    /// Reads a JSON scene back: the scene `encode` wrote, with the same marks to the precision
    /// written (three decimals), so encoding it again gives the same text. A `viewport`, if any,
    /// is not part of the scene and is skipped.
    /// The frame's size is read as written: a scene drawn with other proportions than SPEC §2's
    /// has other cells, and reads back as drawn. One within a millionth of its unit's standard
    /// cell is that cell, exactly.
    /// - Throws: `DecodingError` for JSON that is not a scene: a missing or mistyped field, a
    ///   count over Int64.max, a frame whose unit does not hold the count or whose size is not
    ///   above 0, an unknown kind or colour, a segment of other than 4 or 6 numbers, an opacity
    ///   outside 0 … 1.
    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> TallyScene {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch {
            throw DecodingError("not a tally scene: \(error)")
        }
        guard let count = TallyCount(exactly: file.count) else {
            throw DecodingError("count \(file.count) is over 9,223,372,036,854,775,807")
        }
        guard let level = UnitLevel.all.first(where: { $0.capacity == file.frame.unit }), level.capacity >= count.value,
            level >= UnitLevel.frame(for: count)
        else {
            throw DecodingError("frame unit \(file.frame.unit) is not a unit that holds the count \(count.value)")
        }
        let (width, height) = (file.frame.width, file.frame.height)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw DecodingError("frame \(width) × \(height) is not a size; both sides must be above 0")
        }
        var canvas = Canvas(level: level)
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= max(abs(b), 1) * 1e-6 }
        if !close(width, canvas.width) || !close(height, canvas.height) {
            (canvas.width, canvas.height) = (width, height)
        }
        var marks: [Mark] = []
        marks.reserveCapacity(file.marks.count)
        for (index, fields) in file.marks.enumerated() {
            guard let kind = MarkKind(rawValue: fields.kind) else {
                throw DecodingError("mark \(index): unknown kind '\(fields.kind)'")
            }
            guard let color = ColorToken(rawValue: fields.color) else {
                throw DecodingError("mark \(index): unknown colour '\(fields.color)'")
            }
            let opacity = fields.opacity ?? 1
            guard fields.width >= 0, fields.width.isFinite, (0...1).contains(opacity) else {
                throw DecodingError(
                    "mark \(index): a width of \(fields.width) or an opacity of \(opacity) is out of range")
            }
            var segments: [Segment] = []
            segments.reserveCapacity(fields.segments.count)
            for numbers in fields.segments {
                guard numbers.allSatisfy(\.isFinite) else {
                    throw DecodingError("mark \(index): a coordinate is not a number")
                }
                switch numbers.count {
                case 4: segments.append(Segment(numbers[0], numbers[1], numbers[2], numbers[3]))
                case 6:
                    segments.append(
                        Segment(
                            Point(numbers[0], numbers[1]), Point(numbers[4], numbers[5]),
                            control: Point(numbers[2], numbers[3])))
                default:
                    throw DecodingError(
                        "mark \(index): a segment has \(numbers.count) numbers; it needs 4, or 6 with a control point")
                }
            }
            marks.append(
                Mark(
                    kind: kind, unit: fields.unit, color: color, width: fields.width, segments: segments,
                    opacity: opacity, lens: fields.lens ?? false))
        }
        var goal: TallyCount?
        if let value = file.goal {
            guard value > 0, let parsed = TallyCount(exactly: value) else {
                throw DecodingError("goal \(value) is not a goal from 1 to 9,223,372,036,854,775,807")
            }
            goal = parsed
        }
        return TallyScene(count: count, canvas: canvas, detail: .full, goal: goal, marks: marks)
    }
}

extension TallyScene {
    /// The scene a JSON scene (SPEC §5, `tally render -f json`) describes; see `SceneJSON.decode`.
    ///
    /// ```swift
    /// let scene = try TallyScene(json: try String(contentsOfFile: "137.json", encoding: .utf8))
    /// ```
    /// - Throws: `SceneJSON.DecodingError` for text that is not a tally scene.
    public init(json: String) throws(SceneJSON.DecodingError) {
        self = try SceneJSON.decode(Array(json.utf8))
    }
}
