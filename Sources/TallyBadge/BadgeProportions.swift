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
    /// The marks' box: from the cap height of the text to its baseline (y = 5 to 14), so marks
    /// and digits stand on one line.
    package static let iconTop = 5.0
    package static let iconSide = 9.0
    /// Between two marks of the strip.
    package static let iconGap = 2.0
    /// The pen of every mark in the strip: one pixel at scale 1, on pixel centres.
    package static let pen = 1.0
    /// The progress bar of a partial unit: this tall, on the icon box's floor.
    package static let barHeight = 2.0
    /// At most this many cells of a goal: the unit of a goal's cells is the smallest whose
    /// cells number at most this many.
    package static let maximumGoalCells: UInt64 = 10
    /// The number is written in full up to this many characters ("9,999,999"), and in the
    /// caption's short form beyond.
    package static let fullNumberCharacters = 9
    /// The longest label, in characters.
    package static let maximumLabelCharacters = 100
}
