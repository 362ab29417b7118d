import TallyEncoding
import TallyOptions

/// The text of a request URL: percent-decoding, the query's parameters, and the entity tag.
///
/// Written here rather than taken from Hummingbird's `URI.queryParameters`: that keeps a value
/// whose percent-encoding is broken as it was, and leaves names encoded, where tally refuses
/// such a value with a message naming it, as the command line refuses a bad argument.
package enum URLText {
    /// The longest query string read; longer ones are refused (414) before any is parsed.
    package static let maximumQueryBytes = 2048

    /// `%41` → `A`, and with `plusIsSpace` (query strings, as HTML forms send them) `+` → space.
    /// Nil for a `%` not followed by two hex digits, or bytes that are not UTF-8.
    package static func percentDecoded(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        let utf8 = Array(text.utf8)
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The count part of a path, decoded.
    /// - Throws: `CommandFailure` naming it when it does not decode.
    package static func count(_ raw: some StringProtocol) throws(CommandFailure) -> String {
        guard let text = percentDecoded(raw) else {
            throw .usage("count '\(printable(raw))' is not percent-encoded UTF-8")
        }
        return text
    }

    /// A query string's parameters in order, names and values decoded; `a&b=` gives `a` and `b`
    /// with empty values. Empty pieces (`a&&b`) are skipped.
    ///
    /// - Throws: `CommandFailure` naming the first piece that does not decode.
    package static func parameters(_ query: String?) throws(CommandFailure) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var parameters: [(name: String, value: String)] = []
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: "=")
            let rawName = equals.map { piece[..<$0] } ?? piece
            let rawValue = equals.map { piece[piece.index(after: $0)...] } ?? ""
            guard let name = percentDecoded(rawName, plusIsSpace: true) else {
                throw .usage("query parameter '\(printable(rawName))' is not percent-encoded UTF-8")
            }
            guard let value = percentDecoded(rawValue, plusIsSpace: true) else {
                throw .usage(
                    "query parameter '\(printable(name))' '\(printable(rawValue))' is not percent-encoded UTF-8")
            }
            parameters.append((name, value))
        }
        return parameters
    }

    /// A strong entity tag for a response: a hash of its bytes in two 64-bit lanes, as 32 hex
    /// digits in quotes. Taken from the bytes themselves, so equal tags are equal images and an
    /// image has one tag however it was asked for (SPEC §6, ETags); a hash, not a signature, which
    /// is enough where a URL's bytes never change.
    ///
    /// Each lane takes the bytes eight at a time, as a little-endian word (the same tag on every
    /// machine): xor, multiply by an odd constant (FNV's 64-bit prime; the golden ratio's), then
    /// fold the high half down, so every bit of a word reaches every bit of the lane; the last
    /// zero to seven bytes one at a time, then the length. FNV-1a a byte at a time was about ten
    /// instructions a byte, 130K of a drawn 12 KB SVG's 1,167K (BENCHMARKS.md, "A drawn SVG's
    /// tag"); a word at a time is about two. Written here rather than taken from a package: none
    /// of those at hand hashes bytes this cheaply (a cryptographic digest costs more than FNV).
    package static func entityTag(of bytes: [UInt8]) -> String {
        var first = FNV1a.offsetBasis
        var second: UInt64 = 0x6c62_272e_07bb_0142
        let firstMultiplier = FNV1a.prime
        let secondMultiplier: UInt64 = 0x9e37_79b9_7f4a_7c15
        @inline(__always) func add(_ word: UInt64) {
            first = (first ^ word) &* firstMultiplier
            first ^= first >> 32
            second = (second ^ word) &* secondMultiplier
            second ^= second >> 29
        }
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            var offset = 0
            for _ in 0..<words {
                add(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                offset &+= 8
            }
            while offset < raw.count {
                add(UInt64(raw[offset]))
                offset &+= 1
            }
        }
        add(UInt64(bytes.count))
        return "\"" + hex(first) + hex(second) + "\""
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// Whether `If-None-Match` names this tag (weak comparison, as RFC 9110 §13.1.2 asks: `W/`
    /// is ignored), or is `*`.
    package static func ifNoneMatch(_ header: String?, matches tag: String) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var candidate = candidate.trimmingPrefix(while: \.isWhitespace)
            while candidate.last?.isWhitespace == true { candidate.removeLast() }
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }

    /// Text the client sent, safe for a message or a log line: control characters escaped and
    /// the length bounded, as the command line quotes its arguments.
    package static func printable(_ text: some StringProtocol) -> String { Values.printable(String(text)) }
}
