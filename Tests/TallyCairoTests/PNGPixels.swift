import CCairo
import Foundation

/// A PNG decoded by Cairo: premultiplied ARGB, one UInt32 a pixel.
struct PNGPixels {
    let width: Int
    let height: Int
    let pixels: [UInt32]

    init?(path: String) {
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 || cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        else { return nil }
        cairo_surface_flush(surface)
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let opaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width { pixels.append(opaque ? line[column] | 0xFF00_0000 : line[column]) }
        }
        self.pixels = pixels
    }

    init?(data: Data) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-png-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard FileManager.default.createFile(atPath: path, contents: data) else { return nil }
        self.init(path: path)
    }

    /// How far two images are apart: the mean absolute channel difference (0–255) and the share
    /// of pixels where some channel differs by more than `threshold`.
    func difference(from other: PNGPixels, threshold: Int = 48) -> (mean: Double, outliers: Double)? {
        guard width == other.width, height == other.height else { return nil }
        var total = 0
        var outliers = 0
        for (a, b) in zip(pixels, other.pixels) {
            var largest = 0
            for shift in stride(from: 0, to: 32, by: 8) {
                let d = abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
                total += d
                largest = max(largest, d)
            }
            if largest > threshold { outliers += 1 }
        }
        let count = Double(max(pixels.count, 1))
        return (Double(total) / (4 * count), Double(outliers) / count)
    }
}
