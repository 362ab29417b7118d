import TallyBadge
import TallyGeometry
import TallySVG
import TallyStyle

#if Cairo
import TallyCairo
#endif

/// Everything but the count that decides a badge's bytes (SPEC §7): compared field by field, so
/// a server may key its cache by it.
package struct BadgeSettings: Hashable, Sendable {
    /// SVG, PNG or PDF.
    package var format: OutputFormat
    /// The text of the label plate; nil for none.
    package var label: String?
    /// A goal: the strip shows done against remaining and the number is the share.
    package var goal: TallyCount?
    /// Pixels a badge pixel: 2 for @2x.
    package var scale: Double
    /// The theme and colour overrides (the background is the badge's own plates).
    package var appearance: Appearance
    /// shields.io's style: flat (the default), flat-square or for-the-badge.
    package var style: BadgeStyle
    /// The plates' colours given with `--color` and `--label-color` (none: the theme's).
    package var plates: BadgePlates
    /// The PDF's dates (SPEC §5).
    package var documentDate: Int64

    package init(
        format: OutputFormat = .svg, label: String? = nil, goal: TallyCount? = nil, scale: Double = 1,
        appearance: Appearance? = nil, style: BadgeStyle = .flat, plates: BadgePlates = BadgePlates(),
        documentDate: Int64 = 0
    ) {
        self.format = format
        self.label = label
        self.goal = goal
        self.scale = scale
        self.appearance = appearance ?? .default(for: format)
        self.style = style
        self.plates = plates
        self.documentDate = documentDate
    }

    /// The formats a badge is written in.
    package static let formats: [OutputFormat] = [.svg, .png, .pdf]
}

extension Renderer {
    /// The bytes of a badge laid out by `Badge(count:goal:label:style:)` from these settings'
    /// goal, label and style: what `tally badge` writes and `GET /badge/…` answers.
    /// - Throws: `RenderError` for a scale that gives a side out of range, JSON (a badge has no
    ///   scene format), or a format this build cannot write.
    package static func badge(_ badge: Badge, _ settings: BadgeSettings) throws(RenderError) -> [UInt8] {
        let scale = settings.scale
        guard scale.isFinite, scale > 0 else { throw .viewport(.notPositive("scale", scale)) }
        let (width, height) = (badge.width * scale, badge.height * scale)
        if height < 1 { throw .viewport(.sideTooSmall(height)) }
        if width > Viewport.maximumSide { throw .viewport(.sideTooLarge(width)) }
        if width * height > Viewport.maximumPixels { throw .viewport(.tooManyPixels(width * height)) }
        switch settings.format {
        case .json:
            throw .formatUnavailable(.json)
        case .svg:
            return SVGRenderer.badge(badge, appearance: settings.appearance, scale: scale, plates: settings.plates)
        case .png, .pdf:
            #if Cairo
            let options = CairoOptions(
                appearance: settings.appearance, title: badge.title, description: Words.description(for: badge.count),
                documentDate: settings.documentDate)
            let sheet = CairoSheet(badge: badge, scale: scale, plates: settings.plates)
            do {
                return settings.format == .png
                    ? try CairoRenderer.png(sheet, options: options) : try CairoRenderer.pdf(sheet, options: options)
            } catch {
                throw RenderError(error, drawing: settings.format)
            }
            #else
            throw .formatUnavailable(settings.format)
            #endif
        }
    }
}
