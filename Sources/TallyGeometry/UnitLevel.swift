/// A rung of the tally hierarchy (SPEC §2), by rank:
///
/// | rank | unit | capacity | made of |
/// |---|---|---|---|
/// | 0 | stroke | 1 | — |
/// | 1 | gate | 5 | 4 strokes + the slash |
/// | 2 | twenty-five-unit | 25 | 5 gates in a dice-five |
/// | 3 | hundred-block | 100 | 2×2 twenty-five-units |
/// | 4, 6, 8 … | rows | 10³, 10⁵, 10⁷ … | 10 of the rank below, left to right |
/// | 5, 7, 9 … | blocks | 10⁴, 10⁶, 10⁸ … | 10 rows, top to bottom |
///
/// From rank 3 on the structure repeats every two ranks: a block is a square, a row is ten squares.
public struct UnitLevel: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 0 for the stroke, 1 for the gate, 2 for the twenty-five-unit, … up to the ten-quintillion-row.
    public let rank: Int

    /// One stroke.
    public static let stroke = UnitLevel(rank: 0)
    /// Five: four strokes and the slash.
    public static let gate = UnitLevel(rank: 1)
    /// Twenty-five: five gates as a dice five.
    public static let twentyFive = UnitLevel(rank: 2)
    /// A hundred: four twenty-five-units.
    public static let hundred = UnitLevel(rank: 3)
    /// A thousand: a row of ten hundred-blocks.
    public static let thousandRow = UnitLevel(rank: 4)
    /// Ten thousand: a block of ten rows.
    public static let tenThousandBlock = UnitLevel(rank: 5)
    /// The ten-quintillion-row (10¹⁹): the smallest frame that holds `Int64.max`.
    public static let largest = UnitLevel(rank: 20)

    /// The smallest unit used as a frame: counts 0 … 25 are drawn in a twenty-five-unit.
    public static let smallestFrame = twentyFive

    /// Every level, smallest first.
    public static let all: [UnitLevel] = (0...largest.rank).map(UnitLevel.init(rank:))

    init(rank: Int) {
        precondition(rank >= 0 && rank <= 20, "rank \(rank) outside 0...20")
        self.rank = rank
    }

    /// How a level's children are arranged.
    public enum Shape: Sendable, Equatable {
        case stroke, gate, quincunx, square, row
    }

    /// Ranks 3, 5, 7 … are squares (the hundred-block and the blocks); 4, 6, 8 … rows.
    public var shape: Shape {
        switch rank {
        case 0: .stroke
        case 1: .gate
        case 2: .quincunx
        default: rank % 2 == 1 ? .square : .row
        }
    }

    /// How many counts a complete unit holds.
    public var capacity: UInt64 { Self.capacities[rank] }

    /// By rank: 1, 5, 25, 100, then every power of ten from 1,000 to 10¹⁹ (past Int64.max). A
    /// literal, which the compiler lays out in the binary: nothing is built when it is first read.
    private static let capacities: [UInt64] = [
        1, 5, 25, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]

    /// The unit one rank down, whose copies this unit is made of.
    public var child: UnitLevel? { rank == 0 ? nil : UnitLevel(rank: rank - 1) }

    /// How many children a complete unit holds (for a gate: its five marks).
    public var childCount: Int {
        switch rank {
        case 0: 0
        case 1: 5
        case 2: 5
        case 3: 4
        default: 10
        }
    }

    /// For squares and rows: which pair of ranks the unit belongs to. The hundred-block and the
    /// thousand-row are pair 1, the ten-thousand-block and hundred-thousand-row pair 2, and so on;
    /// each pair is the one below scaled up (see `Proportions.pairScale(_:)`).
    var pair: Int {
        switch shape {
        case .square: (rank - 1) / 2
        case .row: (rank - 2) / 2
        default: 0
        }
    }

    /// The frame for a count: the smallest unit, from the twenty-five-unit up, that holds it.
    public static func frame(for count: TallyCount) -> UnitLevel {
        var level = smallestFrame
        while level.capacity < count.value { level = UnitLevel(rank: level.rank + 1) }
        return level
    }

    /// The frames a user can pin (SPEC §2, `--frame`): from the twenty-five-unit up.
    public static let frames: [UnitLevel] = all.filter { $0 >= smallestFrame }

    /// A frame named as `--frame` accepts it: its capacity in digits (`1000`, `1,000`, `1_000`),
    /// its name (`thousand-row`), or a short name: `25-unit`, `hundred`, `row` (the thousand-row)
    /// and `block` (the ten-thousand-block). Case is ignored.
    ///
    /// ```swift
    /// let frame = try UnitLevel(parsing: "row")   // .thousandRow
    /// ```
    /// - Throws: `ParseError.notAFrame` for anything else, a unit smaller than a frame included.
    public init(parsing text: String) throws(ParseError) {
        let name = text.lowercased()
        let digits = name.filter { $0 != "," && $0 != "_" }
        let aliases: [String: UnitLevel] = [
            "25-unit": .twentyFive, "hundred": .hundred, "row": .thousandRow, "block": .tenThousandBlock,
        ]
        if let alias = aliases[name] {
            self = alias
        } else if let found = Self.frames.first(where: {
            $0.name == name || (!digits.isEmpty && String($0.capacity) == digits)
        }) {
            self = found
        } else {
            throw .notAFrame
        }
    }

    /// Why some text names no frame.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not a frame's capacity, name or short name.
        case notAFrame

        /// What is wrong with the text, as a message's predicate: "is not a frame".
        public var reason: String { "is not a frame" }

        /// "the text is not a frame; use 25, 100, 1000, … or a name such as hundred-block, row or block".
        public var description: String {
            "the text \(reason); use 25, 100, 1000, … or a name such as hundred-block, row or block"
        }
    }

    /// Levels order by size.
    public static func < (lhs: UnitLevel, rhs: UnitLevel) -> Bool { lhs.rank < rhs.rank }

    /// The unit's name in the accessible words: "stroke", "gate", "twenty-five-unit",
    /// "hundred-block", "thousand-row", "ten-thousand-block", "hundred-thousand-row",
    /// "million-block" …
    public var name: String {
        switch rank {
        case 0: return "stroke"
        case 1: return "gate"
        case 2: return "twenty-five-unit"
        case 3: return "hundred-block"
        default:
            let exponent = rank - 1
            let scale = Self.scaleNames[exponent / 3 - 1]
            let prefix = Self.scalePrefixes[exponent % 3]
            return prefix + scale + (shape == .row ? "-row" : "-block")
        }
    }

    /// The scales of the names from a thousand up, each a thousand times the last.
    private static let scaleNames = [
        "thousand", "million", "billion", "trillion", "quadrillion", "quintillion", "sextillion",
    ]
    /// One, ten or a hundred of a scale.
    private static let scalePrefixes = ["", "ten-", "hundred-"]

    /// The name for `count` of them: "1 hundred-block", "2 hundred-blocks".
    public func name(count: Int) -> String { count == 1 ? name : name + "s" }

    /// The level's name.
    public var description: String { name }
}
