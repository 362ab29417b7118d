import CZlib

/// PNG files written here rather than by Cairo, because SPEC §5 asks for 8-bit RGBA always
/// (Cairo writes opaque images as RGB) and for title and description text chunks (Cairo writes
/// none). The image data is deflated by zlib; rows use the usual adaptive filter choice.
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
        header += [8, 6, 0, 0, 0]   // 8 bits a channel, RGBA, deflate, adaptive filtering, no interlace
        out += chunk("IHDR", header)
        for entry in text { out += textChunk(keyword: entry.keyword, text: entry.text) }
        out += chunk("IDAT", try deflate(filteredRows(width: width, height: height, stride: stride, pixels: pixels)))
        out += chunk("IEND", [])
        return out
    }

    /// Straight (not premultiplied) RGBA rows, each behind the filter that makes it smallest by
    /// the sum-of-absolute-differences rule of thumb.
    private static func filteredRows(width: Int, height: Int, stride: Int, pixels: UnsafePointer<UInt32>) -> [UInt8] {
        let rowBytes = width * 4
        var result = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        // Four rows of scratch: the previous and current straight rows, a candidate and the best.
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * rowBytes)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0, count: 4 * rowBytes)
        var previous = scratch, current = scratch + rowBytes
        var candidate = scratch + 2 * rowBytes, best = scratch + 3 * rowBytes
        result.withUnsafeMutableBufferPointer { output in
            for row in 0..<height {
                let line = pixels + row * stride
                for column in 0..<width {
                    let pixel = line[column]
                    let alpha = Int(pixel >> 24)
                    let target = current + 4 * column
                    if alpha == 255 {
                        target[0] = UInt8(truncatingIfNeeded: pixel >> 16)
                        target[1] = UInt8(truncatingIfNeeded: pixel >> 8)
                        target[2] = UInt8(truncatingIfNeeded: pixel)
                    } else if alpha == 0 {
                        target[0] = 0; target[1] = 0; target[2] = 0
                    } else {
                        target[0] = UInt8(min(255, (Int(pixel >> 16 & 0xFF) * 255 + alpha / 2) / alpha))
                        target[1] = UInt8(min(255, (Int(pixel >> 8 & 0xFF) * 255 + alpha / 2) / alpha))
                        target[2] = UInt8(min(255, (Int(pixel & 0xFF) * 255 + alpha / 2) / alpha))
                    }
                    target[3] = UInt8(alpha)
                }
                var bestFilter: UInt8 = 0
                var bestScore = Int.max
                for filter in UInt8(0)...4 {
                    var score = 0
                    for index in 0..<rowBytes {
                        let left = index >= 4 ? Int(current[index - 4]) : 0
                        let up = Int(previous[index])
                        let predictor: Int
                        switch filter {
                        case 0: predictor = 0
                        case 1: predictor = left
                        case 2: predictor = up
                        case 3: predictor = (left + up) >> 1
                        default: predictor = paeth(left, up, index >= 4 ? Int(previous[index - 4]) : 0)
                        }
                        let value = UInt8(truncatingIfNeeded: Int(current[index]) &- predictor)
                        candidate[index] = value
                        score &+= value < 128 ? Int(value) : 256 &- Int(value)
                        if score >= bestScore { break }
                    }
                    if score < bestScore {
                        bestScore = score
                        bestFilter = filter
                        swap(&best, &candidate)
                    }
                }
                let start = row * (rowBytes + 1)
                output[start] = bestFilter
                (output.baseAddress! + start + 1).update(from: best, count: rowBytes)
                swap(&previous, &current)
            }
        }
        return result
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    private static func deflate(_ bytes: [UInt8]) throws(CairoError) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, uLong(bytes.count), 6)
            }
        }
        guard status == Z_OK else { throw CairoError("zlib could not compress the image (status \(status))") }
        return Array(output.prefix(Int(length)))
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
