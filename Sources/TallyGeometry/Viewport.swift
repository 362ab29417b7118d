/// How a frame maps onto output pixels (SPEC §6, `--size`, `--width`, `--height`, `--scale`,
/// `--padding`): pure arithmetic, shared by every backend so they all agree on size and detail.
public struct Viewport: Hashable, Sendable {
    /// Which side of the image the user fixed.
    public enum Side: Hashable, Sendable {
        /// The longer side (SPEC's `--size`, 256 px by default).
        case longer(Double)
        case width(Double)
        case height(Double)
    }

    /// The largest image side and area (SPEC §6), checked before anything is allocated.
    public static let maximumSide = 16_384.0
    public static let maximumPixels = 64_000_000.0
    public static let defaultSide = 256.0

    /// The image size in pixels, padding included.
    public let width: Double
    public let height: Double
    /// Padding on every side, in pixels.
    public let padding: Double
    /// How many pixels one layout unit spans; what the level of detail is decided from.
    public let pixelsPerUnit: Double

    public enum Problem: Error, Hashable, Sendable {
        /// A size, scale or padding that is not a positive finite number.
        case notPositive(String, Double)
        /// The padding leaves no room for the tally.
        case paddingTooLarge(Double)
        /// A side over `maximumSide` pixels.
        case sideTooLarge(Double)
        /// An image over `maximumPixels`.
        case tooManyPixels(Double)
    }

    /// - Parameters:
    ///   - content: the size of what is shown, in layout units (the frame, or the ink for `--fit content`).
    ///   - side: the side the user fixed, before `scale`; padding is part of it.
    ///   - scale: multiplies every pixel length (2 for @2x assets).
    ///   - padding: pixels of empty margin on every side, before `scale`.
    public init(content: (width: Double, height: Double), side: Side, scale: Double = 1, padding: Double = 0) throws(Problem) {
        guard scale.isFinite, scale > 0 else { throw .notPositive("scale", scale) }
        guard padding.isFinite, padding >= 0 else { throw .notPositive("padding", padding) }
        let contentWidth = max(content.width, 1e-9)
        let contentHeight = max(content.height, 1e-9)
        let requested: Double
        switch side {
        case .longer(let value), .width(let value), .height(let value): requested = value
        }
        guard requested.isFinite, requested > 0 else { throw .notPositive("size", requested) }
        let fixed = requested * scale
        guard fixed <= Self.maximumSide else { throw .sideTooLarge(fixed) }
        let pad = padding * scale
        guard 2 * pad < fixed else { throw .paddingTooLarge(padding) }
        let inner = fixed - 2 * pad
        let pixelsPerUnit: Double
        switch side {
        case .longer: pixelsPerUnit = inner / max(contentWidth, contentHeight)
        case .width: pixelsPerUnit = inner / contentWidth
        case .height: pixelsPerUnit = inner / contentHeight
        }
        let width = (contentWidth * pixelsPerUnit + 2 * pad).rounded()
        let height = (contentHeight * pixelsPerUnit + 2 * pad).rounded()
        guard width <= Self.maximumSide else { throw .sideTooLarge(width) }
        guard height <= Self.maximumSide else { throw .sideTooLarge(height) }
        guard width * height <= Self.maximumPixels else { throw .tooManyPixels(width * height) }
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.padding = pad
        self.pixelsPerUnit = pixelsPerUnit
    }
}
