#if Cairo
import CCairo

/// A PNG read back through Cairo, for comparing images pixel by pixel: premultiplied ARGB,
/// one UInt32 a pixel, rows top to bottom.
package struct PNGImage: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package let pixels: [UInt32]

    package init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// nil when `png` is not a PNG Cairo can read, or libcairo cannot be loaded.
    package init?(png: [UInt8]) {
        guard let cairo = try? CairoLibrary.loaded() else { return nil }
        let source = ByteSource(png)
        // Cairo calls back into `source` while it reads: it must outlive the call, which an
        // unretained pointer alone does not promise.
        let surface = withExtendedLifetime(source) {
            cairo.imageSurfaceCreateFromPNGStream(ByteSource.read, Unmanaged.passUnretained(source).toOpaque())
        }
        defer { cairo.surfaceDestroy(surface) }
        guard cairo.surfaceStatus(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        let format = cairo.imageSurfaceGetFormat(surface)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24,
            let data = cairo.imageSurfaceGetData(surface)
        else { return nil }
        cairo.surfaceFlush(surface)
        width = Int(cairo.imageSurfaceGetWidth(surface))
        height = Int(cairo.imageSurfaceGetHeight(surface))
        let stride = Int(cairo.imageSurfaceGetStride(surface))
        let opaque: UInt32 = format == CAIRO_FORMAT_RGB24 ? 0xFF00_0000 : 0
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width { pixels.append(line[column] | opaque) }
        }
        self.pixels = pixels
    }

    /// How two images of the same size differ.
    package struct Difference: Hashable, Sendable {
        /// The mean absolute difference over every channel of every pixel, 0 … 255.
        package var mean: Double
        /// How many pixels have a channel that differs by more than the threshold asked for.
        package var differingPixels: Int
        package var pixelCount: Int
        package var differingShare: Double { Double(differingPixels) / Double(max(pixelCount, 1)) }
    }

    /// nil when the sizes differ.
    /// - Parameter reach: with 1, a pixel differs only if no pixel of `other` within one pixel
    ///   of it (its 3 × 3 neighbourhood) is within the threshold: two rasterisers that cover the
    ///   ends of a 1 px pen differently agree, a mark moved or missing does not.
    package func difference(from other: PNGImage, channelThreshold: Int, reach: Int = 0) -> Difference? {
        guard width == other.width, height == other.height else { return nil }
        var total = 0
        var differing = 0
        for index in pixels.indices where pixels[index] != other.pixels[index] {
            let channels = Self.channelDifference(pixels[index], other.pixels[index])
            total += channels.total
            guard channels.largest > channelThreshold else { continue }
            if reach > 0 {
                let (x, y) = (index % width, index / width)
                var near = false
                for ny in max(0, y - reach)...min(height - 1, y + reach) where !near {
                    for nx in max(0, x - reach)...min(width - 1, x + reach)
                    where Self.channelDifference(pixels[index], other.pixels[ny * width + nx]).largest
                        <= channelThreshold
                    {
                        near = true
                        break
                    }
                }
                if near { continue }
            }
            differing += 1
        }
        return Difference(
            mean: Double(total) / Double(4 * max(pixels.count, 1)), differingPixels: differing, pixelCount: pixels.count
        )
    }

    /// A picture of the difference: the reference faded to light grey, with pixels that differ
    /// by more than the threshold in solid red, so a change is seen at a glance.
    package func differenceImage(against other: PNGImage, channelThreshold: Int) -> PNGImage? {
        guard width == other.width, height == other.height else { return nil }
        let marked = zip(pixels, other.pixels).map { a, b -> UInt32 in
            if Self.channelDifference(a, b).largest > channelThreshold { return 0xFFFF_0000 }
            // Luminance of the reference over white, pulled towards white.
            let alpha = Int(a >> 24)
            let grey = (Int((a >> 16) & 0xFF) + Int((a >> 8) & 0xFF) + Int(a & 0xFF)) / 3 + (255 - alpha)
            let faded = UInt32(min(255, 170 + grey / 3))
            return 0xFF00_0000 | faded << 16 | faded << 8 | faded
        }
        return PNGImage(width: width, height: height, pixels: marked)
    }

    /// How far two ARGB pixels are apart: the sum of the four channel differences and the largest.
    private static func channelDifference(_ a: UInt32, _ b: UInt32) -> (total: Int, largest: Int) {
        var total = 0
        var largest = 0
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            let d = abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
            total += d
            largest = max(largest, d)
        }
        return (total, largest)
    }

    /// The image as PNG bytes.
    package func pngData() throws(CairoError) -> [UInt8] {
        let cairo = try CairoLibrary.loaded()
        let surface = cairo.imageSurfaceCreate(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        defer { cairo.surfaceDestroy(surface) }
        guard cairo.surfaceStatus(surface) == CAIRO_STATUS_SUCCESS, let data = cairo.imageSurfaceGetData(surface)
        else {
            throw CairoError(cairo.surfaceStatus(surface), "create an image", cairo)
        }
        let stride = Int(cairo.imageSurfaceGetStride(surface))
        for row in 0..<height {
            let line = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width { line[column] = pixels[row * width + column] }
        }
        cairo.surfaceMarkDirty(surface)
        let sink = ByteSink()
        let status = cairo.surfaceWriteToPNGStream(
            surface, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
        if status != CAIRO_STATUS_SUCCESS { throw CairoError(status, "write the PNG", cairo) }
        return sink.bytes
    }
}

/// Feeds bytes to Cairo's stream reader.
final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let read: cairo_read_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
        let wanted = Int(length)
        guard source.offset + wanted <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
        source.bytes.withUnsafeBufferPointer { buffer in
            data.update(from: buffer.baseAddress! + source.offset, count: wanted)
        }
        source.offset += wanted
        return CAIRO_STATUS_SUCCESS
    }
}
#endif
