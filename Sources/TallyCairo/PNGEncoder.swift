#if Cairo
import TallyPOSIX

/// PNG files written here rather than by Cairo, because SPEC §5 asks for the smallest lossless
/// colour type that holds the picture (Cairo writes RGB or RGBA always) and for title and
/// description text chunks (Cairo writes none). A tally is flat colour with anti-aliased
/// edges: tens to a couple of hundred colours, so most images are indexed (`IndexedImage`), at
/// a quarter of the bytes to deflate or fewer; the rest are 8-bit RGBA. Either way the decoded
/// pixels are the same. The rows go unfiltered (see `filteredRows` and `IndexedImage.rows`),
/// except that a large image's repeated rows may go behind Up (`upWhereRowsRepeat`), and are
/// deflated by `ImageDeflater`.
enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// - Parameters:
    ///   - pixels: premultiplied ARGB, one UInt32 a pixel (Cairo's ARGB32), rows of `stride` pixels.
    ///   - text: keyword and text pairs, written as `tEXt` (Latin-1) or `iTXt` (UTF-8).
    static func encode(
        width: Int, height: Int, stride: Int, pixels: UnsafePointer<UInt32>,
        text: [(keyword: String, text: String)]
    ) throws(CairoError) -> [UInt8] {
        var out = signature
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        let data: [UInt8]
        let bytesPerPixel: Int
        if let indexed = IndexedImage(width: width, height: height, stride: stride, pixels: pixels) {
            // Palette indices of 1, 2, 4 or 8 bits, deflate, filter method 0, no interlace.
            header += [UInt8(indexed.bitDepth), 3, 0, 0, 0]
            out += chunk("IHDR", header)
            out += chunk("PLTE", indexed.palette.flatMap { [$0.red, $0.green, $0.blue] })
            if !indexed.alphas.isEmpty { out += chunk("tRNS", indexed.alphas) }
            data = indexed.rows()
            bytesPerPixel = 1
        } else {
            header += [8, 6, 0, 0, 0]  // 8 bits a channel, RGBA, deflate, filter method 0, no interlace
            out += chunk("IHDR", header)
            data = filteredRows(width: width, height: height, stride: stride, pixels: pixels)
            bytesPerPixel = 4
        }
        for entry in text { out += textChunk(keyword: entry.keyword, text: entry.text) }
        let rowLength = data.count / height
        var compressed = ImageDeflater.rawDeflate(data, rowLength: rowLength, bytesPerPixel: bytesPerPixel)
        var deflated = data
        if max(width, height) >= largeSide, let repeats = upWhereRowsRepeat(data, rowLength: rowLength) {
            let second = ImageDeflater.rawDeflate(repeats, rowLength: rowLength, bytesPerPixel: bytesPerPixel)
            if second.count < compressed.count { (compressed, deflated) = (second, repeats) }
        }
        out += chunk("IDAT", [0x78, 0xDA] + compressed + ImageDeflater.adlerTrailer(deflated))
        out += chunk("IEND", [])
        return out
    }

    /// From this side on, an image is deflated a second time with its repeated rows behind the
    /// Up filter, and the smaller kept. Measured over the 36-image set (BENCHMARKS.md, "PNG bytes
    /// against optipng"): a row equal to the one above is a run of zeros behind Up, which
    /// deflate codes in a few bits, but matched against the row above it costs a distance with
    /// eight extra bits every 258 bytes, so an image of many repeated rows (9,999 at 1,024 px)
    /// is 13% smaller this way; in others the zeros break the runs that go on from row to row,
    /// and no filter stays smaller. Below 512 px the second pass costs more than it saves.
    static let largeSide = 512

    /// The rows (each behind filter byte 0) with every row that equals the row above put
    /// behind filter 2 (Up), which makes it all zeros; nil when no row repeats.
    static func upWhereRowsRepeat(_ rows: [UInt8], rowLength: Int) -> [UInt8]? {
        let height = rows.count / rowLength
        guard height > 1, rowLength > 1 else { return nil }
        let repeated = rows.withUnsafeBufferPointer { input in
            let base = input.baseAddress!
            return (1..<height).filter { row in
                memcmp(base + row * rowLength + 1, base + (row - 1) * rowLength + 1, rowLength - 1) == 0
            }
        }
        guard !repeated.isEmpty else { return nil }
        var result = rows
        result.withUnsafeMutableBufferPointer { output in
            for row in repeated {
                let start = output.baseAddress! + row * rowLength
                start.pointee = 2
                (start + 1).update(repeating: 0, count: rowLength - 1)
            }
        }
        return result
    }

    /// A premultiplied ARGB pixel as straight RGBA, rounded to nearest (what a PNG stores).
    @inline(__always)
    static func straight(_ pixel: UInt32) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let alpha = pixel >> 24
        if alpha == 255 {
            return (
                UInt8(truncatingIfNeeded: pixel >> 16), UInt8(truncatingIfNeeded: pixel >> 8),
                UInt8(truncatingIfNeeded: pixel), 255
            )
        } else if alpha == 0 {
            return (0, 0, 0, 0)
        }
        let a = Int(alpha)
        return (
            UInt8(min(255, (Int(pixel >> 16 & 0xFF) * 255 + a / 2) / a)),
            UInt8(min(255, (Int(pixel >> 8 & 0xFF) * 255 + a / 2) / a)),
            UInt8(min(255, (Int(pixel & 0xFF) * 255 + a / 2) / a)), UInt8(a)
        )
    }

    /// Straight (not premultiplied) RGBA rows, each behind filter 0 (none), in one pass.
    ///
    /// Measured on the snapshot counts at 256 px (BENCHMARKS.md): tallies are flat colour on
    /// large empty areas, where deflate finds the repeats itself, and no filter with level 9
    /// came out smallest of none, sub, up, paeth and the per-row adaptive choice, at levels 6
    /// and 9 and zlib's three strategies; it also skips the filter work (the adaptive choice
    /// tried all five filters on every row, over half the encoder's time).
    private static func filteredRows(width: Int, height: Int, stride: Int, pixels: UnsafePointer<UInt32>) -> [UInt8] {
        let rowBytes = width * 4
        return [UInt8](unsafeUninitializedCapacity: (rowBytes + 1) * height) { output, initialized in
            var target = output.baseAddress!
            for row in 0..<height {
                target.pointee = 0  // filter: none
                target += 1
                let line = pixels + row * stride
                for column in 0..<width {
                    let (red, green, blue, alpha) = straight(line[column])
                    target[0] = red
                    target[1] = green
                    target[2] = blue
                    target[3] = alpha
                    target += 4
                }
            }
            initialized = (rowBytes + 1) * height
        }
    }

    static func textChunk(keyword: String, text: String) -> [UInt8] {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" }))
        var data = Array(keyword.utf8) + [0]
        if cleaned.unicodeScalars.allSatisfy({ $0.value < 0x100 }) {
            data += cleaned.unicodeScalars.map { UInt8($0.value) }
            return chunk("tEXt", data)
        }
        // No compression, no language tag, no translated keyword, then UTF-8 text.
        data += [0, 0, 0, 0] + Array(cleaned.utf8)
        return chunk("iTXt", data)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { Checksums.crc32($0) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
#endif
