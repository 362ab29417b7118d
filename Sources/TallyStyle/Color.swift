/// An sRGB colour with alpha, 8 bits a channel. User colours are parsed into this and written
/// out again from it, so no user text ever reaches an output.
public struct RGBA: Hashable, Sendable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Opacity, 0 (clear) to 255 (opaque).
    public var alpha: UInt8

    /// A colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from `0xRRGGBB`.
    public init(hex: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8(hex >> 16 & 0xFF), green: UInt8(hex >> 8 & 0xFF), blue: UInt8(hex & 0xFF), alpha: alpha)
    }

    /// Nothing drawn.
    public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)

    /// Whether it draws nothing.
    public var isClear: Bool { alpha == 0 }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque; `none` when fully clear.
    public var css: String {
        if isClear { return "none" }
        // Straight into the string's own storage: this runs for every colour rule of every SVG.
        func hex(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
        let opaque = alpha == 255
        return String(unsafeUninitializedCapacity: opaque ? 7 : 9) { text in
            func write(_ byte: UInt8, at index: Int) {
                text[index] = hex(byte >> 4)
                text[index + 1] = hex(byte & 0xF)
            }
            text[0] = UInt8(ascii: "#")
            write(red, at: 1)
            write(green, at: 3)
            write(blue, at: 5)
            if !opaque { write(alpha, at: 7) }
            return opaque ? 7 : 9
        }
    }

    /// Channels from 0 to 1, for Cairo.
    package var unitComponents: (red: Double, green: Double, blue: Double, alpha: Double) {
        (Double(red) / 255, Double(green) / 255, Double(blue) / 255, Double(alpha) / 255)
    }

    /// Why some text is not a colour.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Neither a hex colour, nor a CSS colour name, nor `none`.
        case notAColor

        /// What is wrong with the text, as a message's predicate: "is not a colour".
        public var reason: String { "is not a colour" }

        /// "the text is not a colour; use #RGB, #RRGGBB, #RRGGBBAA, a CSS colour name or none".
        public var description: String {
            "the text \(reason); use #RGB, #RRGGBB, #RRGGBBAA, a CSS colour name or none"
        }
    }

    /// The strict grammar of the colour options: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, a CSS named
    /// colour (any letter case) or `none`/`transparent`.
    ///
    /// ```swift
    /// let purple = try RGBA(parsing: "RebeccaPurple")
    /// let glass = try RGBA(parsing: "#11223380")
    /// ```
    /// - Throws: `ParseError.notAColor` for anything else.
    public init(parsing text: String) throws(ParseError) {
        guard let color = Self.parsed(text) else { throw .notAColor }
        self = color
    }

    private static func parsed(_ text: String) -> RGBA? {
        let lower = text.lowercased()
        if lower == "none" || lower == "transparent" {
            return .clear
        }
        if let named = NamedColors.table[lower] {
            return RGBA(hex: named)
        }
        guard lower.hasPrefix("#") else { return nil }
        let digits = lower.dropFirst().utf8.map { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        guard digits.allSatisfy({ $0 != nil }) else { return nil }
        let values = digits.map { $0! }
        switch values.count {
        case 3:
            return RGBA(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        case 6, 8:
            let bytes = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
            return RGBA(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
        default:
            return nil
        }
    }
}
