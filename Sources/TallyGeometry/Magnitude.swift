/// SPEC §2, "Magnitude in the picture": from 10,000 up the shapes repeat every two levels (1,000
/// and 100,000 are both ten boxes under a line), so a picture of such a count states its
/// magnitude in the image itself: the count, written under the tally in `StrokeFont`.
///
/// Why the count and not a key ("each box = 10,000"): the digits are read by anyone, in any
/// language, without knowing the notation, and they also say the partial progress the wash can
/// only hint at. The caption is sized in output pixels, never under `minimumDigitPixels`, so it
/// stays legible at 64 px; where every digit does not fit the image's width at that height,
/// the short form does (`Words.short`: "1.23M", "9.22×10¹⁸"), never a smear.
public enum Magnitude {
    /// From this count on, a picture carries its caption unless told not to (`--no-caption`).
    public static let captionedFrom: UInt64 = 10_000
    /// A caption's digits are never shorter than this many output pixels.
    public static let minimumDigitPixels = 7.0
    /// The digits' height as a share of the image's side, where that is more than the minimum.
    public static let digitShare = 0.085
    /// The band under the tally that a caption takes, as a multiple of its digit height: a gap
    /// (`digitTopShare`), the digits, the comma's tail and a bottom margin.
    static let bandShare = 2.0
    /// Where the digits start in the band, as a share of their height.
    static let digitTopShare = 0.4

    /// Whether a count's picture carries a caption: as asked, else from `captionedFrom` on (and
    /// below it by the one digits rule, `writesDigits`, which needs the picture's scale).
    public static func captioned(_ count: TallyCount, asked: Bool?) -> Bool {
        captioned(count.value, asked: asked)
    }

    /// The same rule for any value up to a frame's capacity (10¹⁹ is past Int64.max).
    package static func captioned(_ value: UInt64, asked: Bool?) -> Bool {
        asked ?? (value >= captionedFrom)
    }

    /// SPEC §2, "One digits rule": whether a picture under `captionedFrom`, unasked, writes its
    /// count. It depends on the picture's frame, scale and room alone, never on the count's last
    /// digits: a picture of rows (101 to 10,000) whose gates do not read in place and that has no
    /// lens (`Lens.Room`: none by size, or `--no-inset`) writes its digits; one with a lens, or
    /// whose gates read in place, or of a hundred-block or less, does not. So every count of a
    /// picture of the same rows at one size has digits, or none has.
    /// - Parameters:
    ///   - frame: the frame the picture is drawn in.
    ///   - pixelsPerUnit: the picture's scale.
    ///   - hasLens: whether the picture has a lens.
    ///   - proportions: the proportions the picture is drawn with.
    package static func writesDigits(
        frame: UnitLevel, pixelsPerUnit: Double, hasLens: Bool, _ proportions: Proportions
    ) -> Bool {
        !hasLens && Lens.wanted(frame: frame, pixelsPerUnit: pixelsPerUnit, proportions)
    }
}

/// The caption of one image: what it says and how tall its digits are, in output pixels.
package struct CaptionLayout: Hashable, Sendable {
    /// The count as written: every digit, grouped, or its short form.
    package let text: String
    /// The digits' height in output pixels, at least `Magnitude.minimumDigitPixels`.
    package let digitPixels: Double
    /// The output pixels the caption takes under the tally.
    package var footer: Double { Self.footer(digitPixels) }

    private static func footer(_ digitPixels: Double) -> Double { (digitPixels * Magnitude.bandShare).rounded(.up) }

    /// The caption of `count` in an image whose fixed side is `side` output pixels, with the
    /// viewport that makes room for it: every digit at the preferred height where they fit the
    /// width, else smaller down to the minimum, else the short form, else the short form at the
    /// minimum in an image widened to hold it (a tall block at 64 px), else (a fixed width too
    /// narrow for even that) no caption.
    /// - Parameters:
    ///   - sizing: the counts whose captions the size must hold: the count alone, or, for a
    ///     sequence drawn in one frame, the widest counts of that frame, so every image of the
    ///     sequence has the same size and the same digits.
    ///   - viewport: the viewport with a footer of so many output pixels, at least so many wide.
    package static func fit(
        _ count: TallyCount, sizing: [UInt64], side: Double, density: Double = 1,
        viewport: (Double, Double) throws(Viewport.Problem) -> Viewport
    ) throws(Viewport.Problem) -> (CaptionLayout?, Viewport) {
        // Sized at one density and drawn at the image's, so a `--scale 2` file's digits are its
        // 1x file's twice the size (the floor is the 1x file's, where it is smallest).
        let preferred = density * max(Magnitude.minimumDigitPixels, Magnitude.digitShare * side / density)
        // A caption never takes more than half the image.
        guard 2 * footer(preferred) <= side else { return (nil, try viewport(0, 0)) }
        // Every digit, then the short form: a pair of forms by a flag, not an array of functions
        // (a type of its own, made at run time for every caption, 7K instructions).
        for pass in 0..<2 {
            let form = pass == 1 ? Words.short : Words.grouped
            var widest = 0.0
            for value in sizing {
                widest = max(widest, CaptionLayout(text: form(value), digitPixels: preferred).widthPixels)
            }
            var digits = preferred
            var fitted = try viewport(footer(digits), 0)
            let room = fitted.width - 2 * max(Proportions.minimumMarginPixels, fitted.width * Proportions.marginShare)
            if widest > room {
                digits = preferred * room / widest
                guard digits >= Magnitude.minimumDigitPixels else { continue }
                fitted = try viewport(footer(digits), 0)
            }
            return (CaptionLayout(text: form(count.value), digitPixels: digits), fitted)
        }
        // Rather than no caption (the shapes alone would not tell 10¹⁶ from 10¹⁸): the short form
        // at the smallest digits, with the image widened to hold it and its margins.
        let digits = Magnitude.minimumDigitPixels
        let widest = sizing.map { CaptionLayout(text: Words.short($0), digitPixels: digits).widthPixels }.max() ?? 0
        let needed = max(widest + 2 * Proportions.minimumMarginPixels, widest / (1 - 2 * Proportions.marginShare))
        let widened = try viewport(footer(digits), needed)
        if widened.width >= needed.rounded(.up) {
            return (CaptionLayout(text: Words.short(count.value), digitPixels: digits), widened)
        }
        return (nil, try viewport(0, 0))
    }

    /// The width of the text's ink in output pixels.
    var widthPixels: Double {
        let scale = digitPixels / StrokeFont.capHeight
        return StrokeFont.width(of: text) * scale + max(1, StrokeFont.pen * scale)
    }

    /// The caption's marks, in layout units, in the band at the bottom of the image: centred on
    /// the marks it describes (the tally's ink, left to right; the image's middle when there is
    /// none), kept inside the image's margin, and set on the output pixel grid (`Caption`).
    /// - Parameters:
    ///   - viewport: the image, its footer holding the band.
    ///   - marks: the scene's marks; only the tally's own (not a goal's remaining cells) centre it.
    package func caption(in viewport: Viewport, over marks: [Mark]) -> Caption {
        let scale = viewport.pixelsPerUnit
        let top = viewport.height - viewport.footer + Magnitude.digitTopShare * digitPixels
        var centre = viewport.width / 2
        if let tally = TallyScene.inkSpan(of: marks) {
            centre = ((tally.low + tally.high) / 2 - viewport.visible.minX) * scale
        }
        // Inside the margins; a caption as wide as the room between them (`fit` sized it so)
        // is centred on the image.
        let margin = max(Proportions.minimumMarginPixels, viewport.width * Proportions.marginShare)
        let placement = (scale: 1 / scale, origin: Point(viewport.visible.minX, viewport.visible.minY))
        return Caption(text, height: digitPixels, top: top, placement: placement) { inkWidth in
            let half = inkWidth / 2
            let (lowest, highest) = (margin + half, viewport.width - margin - half)
            return lowest < highest ? min(max(centre, lowest), highest) : viewport.width / 2
        }
    }
}
