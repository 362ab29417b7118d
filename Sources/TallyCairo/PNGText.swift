/// PNG text chunks: the title and description go into the file, after the header, as `tEXt`
/// (Latin-1) or, for text beyond Latin-1, `iTXt` (UTF-8). Cairo's PNG writer has no way to add
/// them, and the chunk format is small enough to write here.
enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `png` with text chunks for each (keyword, text) inserted after the IHDR chunk; nil if
    /// `png` is not a PNG.
    static func inserting(_ entries: [(keyword: String, text: String)], into png: [UInt8]) -> [UInt8]? {
        guard png.count > 33, Array(png[0..<8]) == signature, Array(png[12..<16]) == Array("IHDR".utf8) else { return nil }
        let headerLength = Int(png[8]) << 24 | Int(png[9]) << 16 | Int(png[10]) << 8 | Int(png[11])
        let afterHeader = 8 + 12 + headerLength
        guard afterHeader <= png.count else { return nil }
        var out = Array(png[0..<afterHeader])
        for entry in entries { out += chunk(keyword: entry.keyword, text: entry.text) }
        out += png[afterHeader...]
        return out
    }

    static func chunk(keyword: String, text: String) -> [UInt8] {
        let cleaned = String(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" })
        let latin1 = cleaned.unicodeScalars.allSatisfy { $0.value < 0x100 }
        var data = Array(keyword.utf8) + [0]
        let type: [UInt8]
        if latin1 {
            type = Array("tEXt".utf8)
            data += cleaned.unicodeScalars.map { UInt8($0.value) }
        } else {
            // keyword, NUL, compression flag 0, method 0, empty language tag, NUL, empty translated keyword, NUL, UTF-8 text
            type = Array("iTXt".utf8)
            data += [0, 0, 0, 0] + Array(cleaned.utf8)
        }
        let length = UInt32(data.count)
        var chunk = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        chunk += type + data
        let crc = CRC32.checksum(type + data)
        chunk += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return chunk
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
