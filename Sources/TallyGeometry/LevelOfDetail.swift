/// SPEC §2, "Level of detail": a unit's detail is drawn only where it stays legible.
extension Detail {
    /// Whether units of this level can be drawn one by one at this detail: their pens at least
    /// `Proportions.legibleStrokePixels` wide and the gaps between them at least
    /// `Proportions.legibleGapPixels`. Always true for `.full`. Units drawn with the standard
    /// proportions (`Proportions.standard`).
    public func showsUnits(of level: UnitLevel) -> Bool { showsUnits(of: level, .standard) }

    /// The same for units drawn with `proportions`.
    package func showsUnits(of level: UnitLevel, _ proportions: Proportions) -> Bool {
        guard case .automatic(let pixelsPerUnit) = self else { return true }
        let features = Self.features(of: level, proportions)
        return features.width * pixelsPerUnit >= Proportions.legibleStrokePixels
            && features.gap * pixelsPerUnit >= Proportions.legibleGapPixels
    }

    /// The thinnest pen and the narrowest gap among units of a level drawn side by side.
    static func features(of level: UnitLevel, _ proportions: Proportions) -> (width: Double, gap: Double) {
        switch level.shape {
        case .stroke, .gate:
            return (
                min(proportions.strokeWidth, proportions.slashWidth),
                proportions.strokeSpacing - proportions.strokeWidth
            )
        case .quincunx:
            return (proportions.quincunxCrossWidth, proportions.seam)
        case .square:
            return (proportions.squareCapWidth * proportions.pairScale(level.pair), proportions.squareGap(level.pair))
        case .row:
            // Rows are stacked: the gap between them is the row gap.
            return (proportions.rowLineWidth * proportions.pairScale(level.pair), proportions.rowGap(level.pair))
        }
    }
}

/// SPEC §2, "Level of detail": no pen thinner than 1 output pixel.
extension TallyScene {
    /// Widens every pen to at least `Proportions.minimumPenPixels` when one layout unit is
    /// `pixelsPerUnit` output pixels (SPEC §2: no pen thinner than 1 output pixel), in place.
    package mutating func floorPens(pixelsPerUnit: Double) {
        let floor = Proportions.minimumPenPixels / pixelsPerUnit
        guard floor.isFinite else { return }
        for index in marks.indices where !marks[index].kind.isFilled && marks[index].width < floor {
            marks[index].width = floor
        }
    }
}
