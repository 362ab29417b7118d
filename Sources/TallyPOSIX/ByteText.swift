/// Text that keeps every byte of a command-line argument or a file name, UTF-8 or not.
///
/// Swift's `CommandLine.arguments` repairs invalid UTF-8 (a `\xFF` becomes U+FFFD), so a file
/// named with it could never be written or read. Here each byte that is not part of valid UTF-8
/// becomes one scalar of the private-use range U+10FF00…U+10FFFF (`\xFF` → U+10FFFF), as
/// Python's `surrogateescape` does with surrogates, which Swift strings cannot hold. A valid
/// scalar of that range is escaped byte by byte too, so the mapping is one-to-one and
/// `bytes(decode(b)) == b` for every byte string. Paths built by joining such strings keep their
/// bytes, and every system call gets them back through `withPath`.
package enum ByteText {
    /// The first scalar of the range that stands for raw bytes.
    static let base: UInt32 = 0x10_FF00

    /// The text for these bytes.
    package static func decode(_ bytes: some Collection<UInt8>) -> String {
        // ASCII, nearly every argument, is valid UTF-8 without the private range: the text as it is.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var out = String.UnicodeScalarView()
        var rest = Array(bytes)[...]
        while let lead = rest.first {
            let width = scalarWidth(rest)
            if width > 0, let scalar = String(decoding: rest.prefix(width), as: UTF8.self).unicodeScalars.first,
                scalar.value < base
            {
                out.append(scalar)
                rest = rest.dropFirst(width)
            } else {
                out.append(Unicode.Scalar(base + UInt32(lead))!)
                rest = rest.dropFirst()
            }
        }
        return String(out)
    }

    /// The text of a C string in a buffer (a path `realpath` wrote): its bytes up to the first
    /// NUL, every one kept.
    package static func decode(cString buffer: [CChar]) -> String {
        decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }

    /// The bytes this text stands for.
    package static func bytes(_ text: String) -> [UInt8] {
        // A scalar of the private range is F4 8F BC…BF in UTF-8: text with no F4 byte, nearly
        // every path, is its UTF-8 as it is.
        let raw = text.utf8.withContiguousStorageIfAvailable { $0.contains(0xF4) } ?? text.utf8.contains(0xF4)
        guard raw else { return Array(text.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value >= base {
                out.append(UInt8(scalar.value - base))
            } else if let encoded = UTF8.encode(scalar) {
                out.append(contentsOf: encoded)
            }
        }
        return out
    }

    /// The byte a scalar stands for, or nil for an ordinary scalar (for messages: `\xFF`).
    package static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= base ? UInt8(scalar.value - base) : nil
    }

    /// The process's arguments after the program name, every byte kept.
    package static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            return decode(UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) })
        }
    }

    /// The length of the valid UTF-8 scalar at the start, or 0 when it is not one.
    static func scalarWidth(_ bytes: ArraySlice<UInt8>) -> Int {
        guard let lead = bytes.first else { return 0 }
        let width: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: width = 2
        case 0xE0...0xEF: width = 3
        case 0xF0...0xF4: width = 4
        default: return 0
        }
        guard bytes.count >= width else { return 0 }
        var iterator = bytes.prefix(width).makeIterator()
        var decoder = UTF8()
        guard case .scalarValue = decoder.decode(&iterator), iterator.next() == nil else { return 0 }
        return width
    }
}

/// Calls `body` with the path's bytes as a C string (`ByteText`), for a system call.
package func withPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
    let bytes = ByteText.bytes(path).map { CChar(bitPattern: $0) } + [0]
    return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
}
