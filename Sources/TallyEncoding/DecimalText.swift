/// Numbers as text, the same on every machine and locale: at most `digits` decimals, rounded
/// half away from zero, trailing zeros dropped, `.` as the separator, never an exponent and
/// never `-0`. Written by hand because Foundation's formatters follow the locale and
/// `description` switches to exponents for large and small values.
package enum DecimalText {
    package static func fixed(_ value: Double, digits: Int = 3) -> String {
        var buffer = TextBuffer()
        buffer.append(value, digits: digits)
        return buffer.string
    }
}

/// An output being built as UTF-8 bytes: faster than joining Strings for thousands of numbers.
///
/// It keeps its own storage rather than a `[UInt8]`: an array's `append(contentsOf:)` costs
/// about a hundred instructions in checks a call, more than formatting the number itself, and
/// every coordinate of an SVG or JSON scene is one. It cannot be copied (a writer builds one and
/// reads it once), so appending checks only the capacity: no reference count, no copy on write.
package struct TextBuffer: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    /// The bytes written so far: an offset a writer can note and fill in at the end (an SVG's
    /// ids carry a digest of the whole document, SPEC §2 "Inline-safe SVG").
    package private(set) var count = 0
    private var capacity: Int

    package init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The bytes written so far.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    package var string: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }

    /// Room for `extra` more bytes; returns where they go.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(extra) }
        return start + count
    }

    private mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.update(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func append(_ source: UnsafePointer<UInt8>, count: Int) {
        let target = reserve(count)
        if count <= 32 {
            // A number or a bit of punctuation: a short loop beats a call to memcpy.
            for index in 0..<count { target[index] = source[index] }
        } else {
            target.update(from: source, count: count)
        }
        self.count += count
    }

    package mutating func append(_ text: String) {
        // Native strings hand over their UTF-8 storage at once: a copy, not a walk.
        var text = text
        text.withUTF8 { if let base = $0.baseAddress { append(base, count: $0.count) } }
    }

    package mutating func append(byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    /// A literal's bytes, copied straight from the binary: the writers' punctuation
    /// (`", "`, `"<path class=\""`) goes through here thousands of times an image.
    @inline(__always)
    package mutating func append(literal text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Bytes already encoded (a class name, say), appended as they are.
    package mutating func append(bytes more: [UInt8]) {
        more.withUnsafeBufferPointer { if let base = $0.baseAddress { append(base, count: $0.count) } }
    }

    /// A number as `DecimalText` describes; `leadingZero: false` writes `.5` for `0.5`, as SVG allows.
    ///
    /// Every coordinate of every SVG and JSON scene comes through here, so the length is worked
    /// out first and the digits are written straight to their places in the output, two at a
    /// time, with no intermediate buffer or copy.
    package mutating func append(_ value: Double, digits: Int = 3, leadingZero: Bool = true) {
        precondition((0...6).contains(digits))
        guard value.isFinite else {
            append(byte: UInt8(ascii: "0"))
            return
        }
        let scale = Self.powerOfTen(digits)
        let magnitude = abs(value) * Double(scale)
        // Past 2⁵³ a Double holds no fraction anyway; keep the integer part only.
        if magnitude >= 9.0e15 {
            let whole = abs(value).rounded(.toNearestOrAwayFromZero)
            if value < 0 { append(byte: UInt8(ascii: "-")) }
            appendDigits(whole < 1.8e19 ? UInt64(whole) : 0)
            return
        }
        // Half away from zero, by truncation (a conversion instruction, where `rounded` is a
        // call into libm): the same for every value this writer sees, and the same on every machine.
        // (Through Int64, which x86-64 converts in one instruction: below 9 × 10¹⁵ it is exact.)
        appendUnits(UInt64(Int64(magnitude + 0.5)), negative: value < 0, digits: digits, leadingZero: leadingZero)
    }

    /// A number given as a whole count of its last decimal's units (`units` ÷ 10^`digits`),
    /// written as `append(_:digits:leadingZero:)` writes that value: a writer that works in
    /// rounded units (an SVG path's relative steps) formats them without going back to a Double.
    package mutating func append(units: Int64, digits: Int, leadingZero: Bool = true) {
        precondition((0...6).contains(digits))
        appendUnits(units.magnitude, negative: units < 0, digits: digits, leadingZero: leadingZero)
    }

    /// A path command and its number, `h70.6`, as `append(byte:)` and `append(units:digits:)`
    /// write them, in one call: an SVG path is about a thousand of these.
    package mutating func append(command: UInt8, units: Int64, digits: Int) {
        precondition((0...6).contains(digits))
        reserve(1 + Self.longestUnits).pointee = command
        count += 1
        appendUnits(units.magnitude, negative: units < 0, digits: digits, leadingZero: false, reserved: true)
    }

    /// A path command and two numbers, spaced only where the second has no minus sign to part
    /// them: `m100 0`, `l5-3`.
    package mutating func append(command: UInt8, units first: Int64, _ second: Int64, digits: Int) {
        precondition((0...6).contains(digits))
        // Room for all of it at once: the command, two numbers and the space between.
        reserve(2 + 2 * Self.longestUnits).pointee = command
        count += 1
        appendUnits(first.magnitude, negative: first < 0, digits: digits, leadingZero: false, reserved: true)
        appendParted(second, digits: digits)
    }

    /// A number after another, parted from it by a space or its own minus sign, in room already
    /// reserved.
    @inline(__always)
    private mutating func appendParted(_ units: Int64, digits: Int) {
        if units >= 0 {
            (start + count).pointee = UInt8(ascii: " ")
            count += 1
        }
        appendUnits(units.magnitude, negative: units < 0, digits: digits, leadingZero: false, reserved: true)
    }

    /// Two more numbers after a path command's last, each parted from the one before by a space
    /// or its minus sign: a quadratic's end point after its control point, `q1 2 3-4`.
    package mutating func append(followingPair first: Int64, _ second: Int64, digits: Int) {
        precondition((0...6).contains(digits))
        _ = reserve(2 + 2 * Self.longestUnits)
        appendParted(first, digits: digits)
        appendParted(second, digits: digits)
    }

    /// The most bytes `appendUnits` writes: a sign, 16 digits, a point and 6 decimals.
    private static let longestUnits = 24

    /// `units` (below 9 × 10¹⁵) ÷ 10^`digits`, its sign, trailing zeros dropped, never `-0`.
    @inline(__always)
    /// - Parameter reserved: whether the caller has already made room for `longestUnits` bytes.
    private mutating func appendUnits(
        _ units: UInt64, negative: Bool, digits: Int, leadingZero: Bool, reserved: Bool = false
    ) {
        if units == 0 {
            append(byte: UInt8(ascii: "0"))
            return
        }
        let scale = Self.powerOfTen(digits)
        var whole = units
        var fraction: UInt64 = 0
        var fractionDigits = 0
        if digits > 0 {
            whole = units / scale
            fraction = units - whole * scale
            if fraction != 0 {
                fractionDigits = digits
                while fraction % 10 == 0 {
                    fraction /= 10
                    fractionDigits -= 1
                }
            }
        }
        // Straight into the output, at the digits' final places: at most a sign, 16 digits
        // (units stay under 9 × 10¹⁵), a point and 6 decimals.
        let target = reserved ? start + count : reserve(Self.longestUnits)
        var length = 0
        if negative {
            target[0] = UInt8(ascii: "-")
            length = 1
        }
        if whole > 0 || leadingZero || fractionDigits == 0 {
            // The short wholes of coordinates without a call, the rest from their length.
            if whole < 10 {
                target[length] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: whole)
                length += 1
            } else if whole < 100 {
                Self.writePair(whole, at: target + length)
                length += 2
            } else if whole < 1000 {
                target[length] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: whole / 100)
                Self.writePair(whole % 100, at: target + length + 1)
                length += 3
            } else {
                length += Self.digitCount(whole)
                Self.writeDigits(whole, endingAt: target + length)
            }
        }
        if fractionDigits > 0 {
            target[length] = UInt8(ascii: ".")
            // Exactly `fractionDigits` places, leading zeros included (.05), two at a time.
            var place = length + fractionDigits - 1
            var left = fractionDigits
            while left >= 2 {
                Self.writePair(fraction % 100, at: target + place)
                fraction /= 100
                place -= 2
                left -= 2
            }
            if left == 1 { target[place + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction) }
            length += 1 + fractionDigits
        }
        count += length
    }

    package mutating func append(integer value: UInt64) { appendDigits(value) }

    private mutating func appendDigits(_ value: UInt64) {
        let length = Self.digitCount(value)
        Self.writeDigits(value, endingAt: reserve(length) + length)
        count += length
    }

    /// 10^n for n in 0 … 19.
    @inline(__always)
    private static func powerOfTen(_ n: Int) -> UInt64 {
        // A switch the compiler turns into a table lookup.
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// How many decimal digits `value` has (1 for 0): from its bit length, then one comparison.
    @inline(__always)
    private static func digitCount(_ value: UInt64) -> Int {
        let guess = ((64 - value.leadingZeroBitCount) * 1233) >> 12  // ⌊log10(2^bits)⌋
        return max(1, guess + (guess < 20 && value >= powerOfTen(guess) ? 1 : 0))
    }

    /// "00" … "99": two digits per division, half the work of one at a time.
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes `pair` (0 … 99) as two digits at `target`.
    @inline(__always)
    private static func writePair(_ pair: UInt64, at target: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        let index = Int(truncatingIfNeeded: pair) &* 2
        target[0] = pairs[index]
        target[1] = pairs[index + 1]
    }

    /// Writes `value`'s decimal digits so they end just before `end`.
    @inline(__always)
    private static func writeDigits(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var index = end
        var rest = value
        while rest >= 100 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            index -= 2
            index[0] = pairs[pair]
            index[1] = pairs[pair + 1]
        }
        if rest >= 10 {
            let pair = Int(rest) &* 2
            index -= 2
            index[0] = pairs[pair]
            index[1] = pairs[pair + 1]
        } else {
            index -= 1
            index[0] = UInt8(ascii: "0") + UInt8(rest)
        }
    }

}
