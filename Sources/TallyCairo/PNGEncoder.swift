#if Cairo
import CZlib

/// PNG files written here rather than by Cairo, because SPEC §5 asks for 8-bit RGBA always
/// (Cairo writes opaque images as RGB) and for title and description text chunks (Cairo writes
/// none). The image data is deflated by zlib, rows unfiltered (see `filteredRows`).
enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// - Parameters:
    ///   - pixels: premultiplied ARGB, one UInt32 a pixel (Cairo's ARGB32), rows of `stride` pixels.
    ///   - text: keyword and text pairs, written as `tEXt` (Latin-1) or `iTXt` (UTF-8).
    static func encode(width: Int, height: Int, stride: Int, pixels: UnsafePointer<UInt32>,
                       text: [(keyword: String, text: String)]) throws(CairoError) -> [UInt8] {
        var out = signature
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]   // 8 bits a channel, RGBA, deflate, filter method 0, no interlace
        out += chunk("IHDR", header)
        for entry in text { out += textChunk(keyword: entry.keyword, text: entry.text) }
        out += chunk("IDAT", try deflate(filteredRows(width: width, height: height, stride: stride, pixels: pixels)))
        out += chunk("IEND", [])
        return out
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
                target.pointee = 0   // filter: none
                target += 1
                let line = pixels + row * stride
                for column in 0..<width {
                    let pixel = line[column]
                    let alpha = pixel >> 24
                    if alpha == 255 {
                        target[0] = UInt8(truncatingIfNeeded: pixel >> 16)
                        target[1] = UInt8(truncatingIfNeeded: pixel >> 8)
                        target[2] = UInt8(truncatingIfNeeded: pixel)
                        target[3] = 255
                    } else if alpha == 0 {
                        target[0] = 0; target[1] = 0; target[2] = 0; target[3] = 0
                    } else {
                        // Un-premultiply, rounding to nearest.
                        let a = Int(alpha)
                        target[0] = UInt8(min(255, (Int(pixel >> 16 & 0xFF) * 255 + a / 2) / a))
                        target[1] = UInt8(min(255, (Int(pixel >> 8 & 0xFF) * 255 + a / 2) / a))
                        target[2] = UInt8(min(255, (Int(pixel & 0xFF) * 255 + a / 2) / a))
                        target[3] = UInt8(a)
                    }
                    target += 4
                }
            }
            initialized = (rowBytes + 1) * height
        }
    }

    /// zlib at level 9 and its largest window and memory: measured best for these images
    /// (BENCHMARKS.md: within 4% of `optipng -o2` keeping 8-bit RGBA, where level 6 was up to
    /// 27% larger), and as deterministic as any level.
    private static func deflate(_ bytes: [UInt8]) throws(CairoError) -> [UInt8] {
        var stream = z_stream()
        var status = deflateInit2_(&stream, 9, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw CairoError("zlib could not start compressing (status \(status))") }
        // Level 9's search, its chains cut from 4,096 to 1,024 links (and shortened sooner, past
        // an 8-byte match): the same bytes within 0.2% on the snapshot counts for 25% fewer
        // instructions. Below 1,024 the long runs of a box's sides compress far worse (100 at
        // 256 px grows by a third).
        deflateTune(&stream, 8, 258, 258, 1_024)
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw CairoError("zlib could not compress the image (status \(status))") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
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
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
#endif
