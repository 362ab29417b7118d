/// A rectangle in layout units.
public struct Rect: Hashable, Sendable {
    /// The left edge.
    public var minX: Double
    /// The top edge (y grows downwards).
    public var minY: Double
    /// How wide.
    public var width: Double
    /// How tall.
    public var height: Double
    /// A rectangle from its top left corner and size.
    public init(minX: Double, minY: Double, width: Double, height: Double) {
        self.minX = minX
        self.minY = minY
        self.width = width
        self.height = height
    }
    /// The right edge.
    public var maxX: Double { minX + width }
    /// The bottom edge.
    public var maxY: Double { minY + height }
}

/// How layout units map onto output pixels (SPEC §6: `--size`, `--width`, `--height`, `--scale`,
/// `--padding`, `--fit`): pure arithmetic shared by every backend, so they agree on the size,
/// the placement and the level of detail.
public struct Viewport: Hashable, Sendable {
    /// Which side of the image the user fixed.
    public enum Side: Hashable, Sendable {
        /// The longer side (SPEC's `--size`, 256 px by default).
        case longer(Double)
        case width(Double)
        case height(Double)

        /// The length the user fixed, whichever side it is.
        public var pixels: Double {
            switch self {
            case .longer(let value), .width(let value), .height(let value): value
            }
        }
    }

    /// The largest image side and area (SPEC §6), checked before anything is allocated.
    public static let maximumSide = 16_384.0
    /// The largest image area, in pixels (SPEC §6).
    public static let maximumPixels = 64_000_000.0
    /// The longer side when none is given (SPEC §6).
    public static let defaultSide = 256.0

    /// The limits in words, for every message that names them (the command line's, the
    /// server's, `RenderError`'s): "images are at most 16,384 px a side and 64 megapixels".
    package static let limitsInWords =
        "images are at most \(Words.grouped(UInt64(maximumSide))) px a side and \(Int(maximumPixels / 1_000_000)) megapixels"

    /// A side in words: "20,000 px", or for a side no image could have, "more than 16,384 px".
    package static func sideInWords(_ value: Double) -> String {
        value.isFinite && value >= 0 && value < 1e15
            ? "\(Words.grouped(UInt64(value.rounded()))) px" : "more than \(Words.grouped(UInt64(maximumSide))) px"
    }

    /// The image size in whole pixels, padding included.
    public let width: Double
    /// The image height in whole pixels, padding included.
    public let height: Double
    /// How many pixels one layout unit spans; what the level of detail is decided from.
    public let pixelsPerUnit: Double
    /// The part of the layout that fills the whole image (the content, the padding around it,
    /// and any rounding of the image size, split evenly): the SVG `viewBox`.
    public private(set) var visible: Rect

    /// Why a size, scale or padding cannot make an image.
    public enum Problem: Error, Hashable, Sendable {
        /// A size, scale or padding that is not a finite number in range.
        case notPositive(String, Double)
        /// A side under one pixel once scaled (the side the user fixed, before `scale`).
        case sideTooSmall(Double)
        /// The padding leaves no room for the tally.
        case paddingTooLarge(Double)
        /// A side over `maximumSide` pixels.
        case sideTooLarge(Double)
        /// An image over `maximumPixels`.
        case tooManyPixels(Double)
    }

    /// - Parameters:
    ///   - content: what is shown, in layout units: the part of the frame the fit shows
    ///     (`Canvas.shown(_:for:)`).
    ///   - side: the side the user fixed, before `scale`; the margin is part of it.
    ///   - scale: multiplies every pixel length (2 for @2x assets).
    ///   - padding: pixels of empty margin on every side, before `scale`; nil for the default
    ///     margin, `Proportions.marginShare` of the content's shorter side and at least
    ///     `Proportions.minimumMarginPixels`.
    ///   - footer: output pixels kept under the content and its margin, for a caption sized in
    ///     pixels (`CaptionLayout`); part of the side, like the margin.
    ///   - footerWidth: output pixels the footer's text needs across: an image narrower than
    ///     that is widened to it (the content centred), as far as the side allows (a fixed
    ///     width never changes; a longer side is never passed).
    public init(
        content: Rect, side: Side, scale: Double = 1, padding: Double? = nil, footer: Double = 0,
        footerWidth: Double = 0
    ) throws(Problem) {
        guard scale.isFinite, scale > 0 else { throw .notPositive("scale", scale) }
        let requested = side.pixels
        guard requested.isFinite, requested > 0 else { throw .notPositive("size", requested) }
        let fixed = requested * scale
        guard fixed <= Self.maximumSide else { throw .sideTooLarge(fixed) }
        guard fixed >= 1 else { throw .sideTooSmall(requested) }
        // An empty content (nothing to fit) still gets a square of the smallest size.
        let contentWidth = max(content.width, 1e-6)
        let contentHeight = max(content.height, 1e-6)
        // The margin: `pad` pixels, or `margin` layout units (which scale with the picture).
        var pad = 0.0
        var margin = 0.0
        if let padding {
            guard padding.isFinite, padding >= 0 else { throw .notPositive("padding", padding) }
            pad = padding * scale
            guard 2 * pad < fixed else { throw .paddingTooLarge(padding) }
        } else {
            margin = min(contentWidth, contentHeight) * Proportions.marginShare
        }
        func fitted() -> Double {
            let inner = fixed - 2 * pad
            // The footer is under the content: it takes from the height only.
            let tall = max(inner - footer, 1e-9)
            switch side {
            case .longer: return min(inner / (contentWidth + 2 * margin), tall / (contentHeight + 2 * margin))
            case .width: return inner / (contentWidth + 2 * margin)
            case .height: return tall / (contentHeight + 2 * margin)
            }
        }
        var pixelsPerUnit = fitted()
        if padding == nil, margin * pixelsPerUnit < Proportions.minimumMarginPixels {
            // Never under the minimum, where the image has room for it.
            margin = 0
            pad = fixed >= 8 * Proportions.minimumMarginPixels ? Proportions.minimumMarginPixels : 0
            pixelsPerUnit = fitted()
        }
        var width = max(((contentWidth + 2 * margin) * pixelsPerUnit + 2 * pad).rounded(), 1)
        switch side {
        case .longer: width = max(width, min(footerWidth.rounded(.up), fixed))
        case .height: width = max(width, footerWidth.rounded(.up))
        case .width: break
        }
        let height = max(((contentHeight + 2 * margin) * pixelsPerUnit + 2 * pad + footer).rounded(), 1)
        guard width <= Self.maximumSide else { throw .sideTooLarge(width) }
        guard height <= Self.maximumSide else { throw .sideTooLarge(height) }
        guard width * height <= Self.maximumPixels else { throw .tooManyPixels(width * height) }
        self.width = width
        self.height = height
        self.pixelsPerUnit = pixelsPerUnit
        let visibleWidth = width / pixelsPerUnit
        let visibleHeight = height / pixelsPerUnit
        self.footer = footer
        self.visible = Rect(
            minX: content.minX - (visibleWidth - contentWidth) / 2,
            minY: content.minY - (visibleHeight - footer / pixelsPerUnit - contentHeight) / 2,
            width: visibleWidth, height: visibleHeight)
    }

    /// Output pixels under the content and its margin, kept for a caption.
    public let footer: Double

    private init(width: Double, height: Double, pixelsPerUnit: Double, visible: Rect, footer: Double) {
        self.width = width
        self.height = height
        self.pixelsPerUnit = pixelsPerUnit
        self.visible = visible
        self.footer = footer
    }

    /// This viewport with `pixels` more output pixels to the right (`right`) or at the bottom,
    /// for a lens (`Lens`): what was shown stays where it was, at the same scale.
    package func grown(by pixels: Double, right: Bool) throws(Problem) -> Viewport {
        let (width, height) = right ? (width + pixels, height) : (width, height + pixels)
        guard width <= Self.maximumSide else { throw .sideTooLarge(width) }
        guard height <= Self.maximumSide else { throw .sideTooLarge(height) }
        guard width * height <= Self.maximumPixels else { throw .tooManyPixels(width * height) }
        var visible = visible
        visible.width = width / pixelsPerUnit
        visible.height = height / pixelsPerUnit
        return Viewport(width: width, height: height, pixelsPerUnit: pixelsPerUnit, visible: visible, footer: footer)
    }

    /// This viewport `width` output pixels wide, what was shown centred in it at the same scale
    /// (a terminal preview planned narrower than its columns, to fit their lines).
    package func widened(to width: Double) -> Viewport {
        guard width > self.width else { return self }
        var visible = visible
        visible.minX -= ((width - self.width) / 2).rounded(.down) / pixelsPerUnit
        visible.width = width / pixelsPerUnit
        return Viewport(width: width, height: height, pixelsPerUnit: pixelsPerUnit, visible: visible, footer: footer)
    }

    /// This viewport moved by under a pixel so that `placed`, the content as the scene places
    /// it (`Canvas.shown(_:for:detail:)`, in whole-pixel steps), sits centred in the image with
    /// its top left on a pixel corner: every unit then starts on a pixel corner, so siblings
    /// are drawn alike, and the pixels the whole-pixel steps saved go to the margins.
    package func aligned(to placed: Rect) -> Viewport {
        var aligned = self
        let left = ((width - placed.width * pixelsPerUnit) / 2).rounded(.down)
        let top = ((height - footer - placed.height * pixelsPerUnit) / 2).rounded(.down)
        aligned.visible.minX = placed.minX - left / pixelsPerUnit
        aligned.visible.minY = placed.minY - top / pixelsPerUnit
        return aligned
    }
}
