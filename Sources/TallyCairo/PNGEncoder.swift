#if Cairo
import CZlib
import TallyPOSIX

/// PNG files written here rather than by Cairo, because SPEC §5 asks for the smallest lossless
/// colour type that holds the picture (Cairo writes RGB or RGBA always) and for title and
/// description text chunks (Cairo writes none). A tally is flat colour with anti-aliased
/// edges: tens to a couple of hundred colours, so most images are indexed (`IndexedImage`), at
/// a quarter of the bytes to deflate or fewer; the rest are 8-bit RGBA. Either way the decoded
/// pixels are the same. The image data is deflated by zlib, rows unfiltered (see
/// `filteredRows` and `IndexedImage.rows`).
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
        var compressed: [UInt8]
        if max(width, height) < largeSide {
            compressed = try deflate(data, effort: .quick)
        } else {
            // Large images: the smallest of three tries (BENCHMARKS.md).
            compressed = try deflate(data, effort: .full)
            let adaptive = try deflate(
                adaptivelyFiltered(data, rowBytes: data.count / height - 1, bytesPerPixel: bytesPerPixel), effort: .full
            )
            if adaptive.count < compressed.count { compressed = adaptive }
        }
        out += chunk("IDAT", compressed)
        out += chunk("IEND", [])
        return out
    }

    /// How hard deflate looks for matches.
    enum Effort {
        /// Level 9 with its chains cut from 4,096 to 1,024 links (and shortened sooner, past an
        /// 8-byte match): within 0.2% of `full` for a third fewer instructions.
        case quick
        /// Level 9 as zlib tunes it.
        case full
    }

    /// From this side on, an image is deflated twice and the smaller kept: rows unfiltered, and
    /// behind the per-row adaptive filter. Measured (BENCHMARKS.md, `scripts/png-filter-matrix`): no filter and
    /// the default strategy are smallest over the set as a whole, but a large image of many
    /// equal rows (9,999 at 1,024 px) is 15% smaller behind the adaptive filter; the large
    /// images carry most of the bytes, and below 512 px the extra tries would cost more
    /// instructions than the bytes they save are worth.
    static let largeSide = 512

    /// Unfiltered rows (each behind a filter byte 0) filtered again row by row with whichever of
    /// the five PNG filters gives the smallest sum of absolute values, the lowest filter type on
    /// a tie (the choice libpng and optipng make), reading the unfiltered previous row.
    ///
    /// Two passes a row: the five costs in one loop over the row, then the chosen filter's bytes
    /// written once (writing all five candidates and copying the winner cost twice as much). A
    /// row equal to the one above, most rows of a large tally, is decided without the loop: Up
    /// makes it all zeros, cost 0, and only None ties with that, on a row of zeros.
    static func adaptivelyFiltered(_ rows: [UInt8], rowBytes: Int, bytesPerPixel bpp: Int) -> [UInt8] {
        let height = rows.count / (rowBytes + 1)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        return [UInt8](unsafeUninitializedCapacity: rows.count) { output, initialized in
            rows.withUnsafeBufferPointer { input in
                zeros.withUnsafeBufferPointer { zeros in
                    for row in 0..<height {
                        let line = input.baseAddress! + row * (rowBytes + 1) + 1
                        let above = row > 0 ? line - (rowBytes + 1) : zeros.baseAddress!
                        let target = output.baseAddress! + row * (rowBytes + 1)
                        let filter: Int
                        if row > 0 && memcmp(line, above, rowBytes) == 0 {
                            filter = memcmp(line, zeros.baseAddress!, rowBytes) == 0 ? 0 : 2
                        } else {
                            filter = cheapestFilter(line, above, rowBytes, bpp)
                        }
                        target[0] = UInt8(filter)
                        writeFiltered(filter, line, above, rowBytes, bpp, into: target + 1)
                    }
                }
            }
            initialized = rows.count
        }
    }

    /// The PNG predictor of filter 4 (Paeth) from left `a`, above `b` and upper left `c`.
    @inline(__always)
    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// |v| of a filtered byte read as a signed one: the cost the filters are compared by.
    @inline(__always)
    private static func cost(_ value: Int) -> Int { abs(Int(Int8(truncatingIfNeeded: value))) }

    /// The filter type, 0 … 4, whose bytes for this row have the least sum of `cost`; the
    /// lowest type on a tie.
    private static func cheapestFilter(
        _ line: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ rowBytes: Int, _ bpp: Int
    ) -> Int {
        var (none, sub, up, average, paethCost) = (0, 0, 0, 0, 0)
        for i in 0..<rowBytes {
            let x = Int(line[i])
            let b = Int(above[i])
            let a = i >= bpp ? Int(line[i - bpp]) : 0
            let c = i >= bpp ? Int(above[i - bpp]) : 0
            none &+= cost(x)
            sub &+= cost(x &- a)
            up &+= cost(x &- b)
            average &+= cost(x &- (a &+ b) / 2)
            paethCost &+= cost(x &- paeth(a, b, c))
        }
        var best = 0
        var bestCost = none
        if sub < bestCost { (best, bestCost) = (1, sub) }
        if up < bestCost { (best, bestCost) = (2, up) }
        if average < bestCost { (best, bestCost) = (3, average) }
        if paethCost < bestCost { best = 4 }
        return best
    }

    /// The row's bytes under one filter type.
    private static func writeFiltered(
        _ filter: Int, _ line: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ rowBytes: Int, _ bpp: Int,
        into target: UnsafeMutablePointer<UInt8>
    ) {
        switch filter {
        case 0:
            target.update(from: line, count: rowBytes)
        case 1:
            for i in 0..<rowBytes { target[i] = line[i] &- (i >= bpp ? line[i - bpp] : 0) }
        case 2:
            for i in 0..<rowBytes { target[i] = line[i] &- above[i] }
        case 3:
            for i in 0..<rowBytes {
                let a = i >= bpp ? Int(line[i - bpp]) : 0
                target[i] = line[i] &- UInt8((a + Int(above[i])) / 2)
            }
        default:
            for i in 0..<rowBytes {
                let a = i >= bpp ? Int(line[i - bpp]) : 0
                let c = i >= bpp ? Int(above[i - bpp]) : 0
                target[i] = line[i] &- UInt8(paeth(a, Int(above[i]), c))
            }
        }
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

    /// zlib at level 9, its largest window, memory level 8 and the default strategy: measured
    /// smallest for these images (BENCHMARKS.md, "Row filter and zlib settings": level 6 was 14%
    /// larger, memory level 9 and the filtered strategy larger too), and as deterministic as any.
    private static func deflate(_ bytes: [UInt8], effort: Effort) throws(CairoError) -> [UInt8] {
        var stream = z_stream()
        var status = deflateInit2_(
            &stream, 9, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw CairoError("zlib could not start compressing (status \(status))") }
        if effort == .quick { deflateTune(&stream, 8, 258, 258, 1_024) }
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
