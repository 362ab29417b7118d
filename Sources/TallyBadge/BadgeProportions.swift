import TallyGeometry

/// A badge's geometry (SPEC §7), in pixels at scale 1: the shields.io "flat" badge it sits
/// beside is 20 px tall with 3 px corners and 11 px text on a baseline at y = 14.
package enum BadgeProportions {
    /// The badge's height.
    package static let height = 20.0
    /// The radius of its outer corners.
    package static let cornerRadius = 3.0
    /// The text's size (its em) and baseline.
    package static let fontSize = 11.0
    package static let baseline = 14.0
    /// Space between a plate's edge and its text or marks.
    package static let platePadding = 6.0
    /// Space between the marks and the number.
    package static let stripGap = 4.0
    /// The value plate's frame, in the label plate's colour, so a light plate keeps its edge on
    /// a white page.
    package static let frameWidth = 1.0
    /// The top of the strip's marks in the flat styles: the cap height of the text, so marks
    /// and digits stand on one line from y = 5 to the baseline at 14 (`BadgeStrip.Metrics`).
    package static let iconTop = 5.0
    /// The number is written in full up to this many characters ("9,999,999"), and in
    /// shields' metric form beyond ("10.0M", `BadgeNumber`).
    package static let fullNumberCharacters = 9
    /// The longest label, in characters.
    package static let maximumLabelCharacters = 100
}

/// shields.io's badge styles a badge takes (SPEC §7, "At home beside shields"): `--style` and
/// `?style=`.
package enum BadgeStyle: String, CaseIterable, Hashable, Sendable {
    /// The default: 20 px, 3 px corners, each text over a 1 px shadow, as shields' "flat".
    case flat
    /// 20 px, square corners, no shadow, as shields' "flat-square".
    case flatSquare = "flat-square"
    /// 28 px, square corners, 10 px upper-case text spaced 1.25 px, the value in bold, as
    /// shields' "for-the-badge".
    case forTheBadge = "for-the-badge"

    /// The geometry of the style, in pixels at scale 1.
    package var metrics: BadgeMetrics {
        switch self {
        case .flat: BadgeMetrics(cornerRadius: BadgeProportions.cornerRadius, shadow: true)
        case .flatSquare: BadgeMetrics(cornerRadius: 0, shadow: false)
        case .forTheBadge:
            // shields' for-the-badge (badge-maker's renderer): 28 px tall, FONT_SIZE 10,
            // TEXT_MARGIN 12, LETTER_SPACING 1.25, the message bold, square (crispEdges) plates,
            // no shadow. Its text's baseline is at 17.5; ours is on the pixel edge below it,
            // y = 18, and the marks stand on it (their box y = 9 to 18), as in flat they stand
            // on y = 14: centred in the 28 px plate within half a pixel, pens on pixel centres.
            BadgeMetrics(
                height: 28, cornerRadius: 0, fontSize: 10, baseline: 18, padding: 12, tracking: 1.25,
                iconTop: 9, upperCase: true, boldValue: true, shadow: false)
        }
    }
}

/// A style's geometry (SPEC §7), in pixels at scale 1: flat's figures are `BadgeProportions`'.
package struct BadgeMetrics: Hashable, Sendable {
    /// The badge's height.
    package var height = BadgeProportions.height
    /// The radius of its outer corners; 0 for square.
    package var cornerRadius: Double
    /// The text's size (its em) and baseline.
    package var fontSize = BadgeProportions.fontSize
    package var baseline = BadgeProportions.baseline
    /// Space between a plate's edge and its text or marks.
    package var padding = BadgeProportions.platePadding
    /// Letter spacing: pixels added between each two characters.
    package var tracking = 0.0
    /// The top of the strip's icon box; the strip is laid out at `BadgeProportions.iconTop` and
    /// moved down by the difference.
    package var iconTop = BadgeProportions.iconTop
    /// Whether label and value are written in capitals.
    package var upperCase = false
    /// Whether the value is set in the bold face.
    package var boldValue = false
    /// Whether each text is drawn over its shadow, 1 px lower (shields' flat: #010101 at 30%
    /// under light text, #ccc at 30% under dark).
    package var shadow: Bool
    /// How far the shadow lies below its text.
    package static let shadowOffset = 1.0
}
