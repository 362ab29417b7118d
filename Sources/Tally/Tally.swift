@_exported import TallyEncoding
@_exported import TallyGeometry
@_exported import TallyRender
@_exported import TallyStyle

/// Fractal Completion Tallies in one import: `import Tally`.
///
/// Each function draws a count with SPEC's defaults (a 256 px image; an SVG that follows the
/// viewer's colour scheme on a transparent background, a PNG or PDF light on its paper; the
/// clean style; the fit that fills the image; the count written under it from 10,000 on)
/// unless told otherwise.
///
/// ```swift
/// import Tally
///
/// let svg = try TallyMarks.svg(137)                               // a 256 px SVG document
/// let png = try TallyMarks.png(1_234, size: 512, theme: .dark)    // PNG bytes
/// let scene = TallyMarks.scene(137)                               // the marks themselves
/// let again = try TallyScene(json: try TallyMarks.json(137))           // the JSON scene, read back
/// ```
///
/// For every setting at once (frames pinned for a flipbook, colours, margins), build a
/// `RenderSettings` and call `TallyMarks.render(_:_:)`.
public enum TallyMarks {
    /// The marks of a count: what every backend draws.
    ///
    /// ```swift
    /// let boxes = TallyMarks.scene(137).marks.filter { $0.kind == .box }.count   // 1
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - frame: a larger frame to draw in (SPEC §2, `--frame`); nil for the count's own.
    ///   - detail: `.full` for every mark, or `.automatic(pixelsPerUnit:)` for what stays legible.
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`): the cells still to fill are
    ///     `remaining` marks.
    public static func scene(
        _ count: TallyCount, frame: UnitLevel? = nil, detail: Detail = .full, of goal: TallyCount? = nil
    ) -> TallyScene {
        TallyScene(count: count, frame: frame, detail: detail, goal: goal)
    }

    /// An SVG document of the count.
    ///
    /// ```swift
    /// let svg = try TallyMarks.svg(137, size: 512, theme: .auto)
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - size: the longer side in pixels (its `width` and `height`; the drawing scales).
    ///   - theme: the palette; `.auto` (SVG) carries both and follows the viewer's colour scheme.
    ///   - background: `.none` (transparent), `.paper` (the theme's paper) or a colour.
    ///   - style: `.clean` geometry or `.ink`, hand-drawn.
    ///   - seed: the ink style's seed: the same seed, the same wobble.
    ///   - caption: writes the count under the tally; nil: from 10,000 on.
    ///   - animation: `.all` draws every mark in; `.since(count)` only those new since it.
    ///   - label: the accessible title instead of "137 tally marks".
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`): `TallyMarks.svg(6_200, of: 10_000)`
    ///     draws the goal's frame with the cells still to fill outlined, titled
    ///     "6,200 of 10,000 (62%)".
    /// - Returns: the SVG document, UTF-8 text.
    /// - Throws: `RenderError` for a size out of range or an animation from a larger count.
    public static func svg(
        _ count: TallyCount, of goal: TallyCount? = nil, size: Double = Viewport.defaultSide, theme: Theme = .auto,
        background: Background = .none, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
        animation: MarkAnimation = .none, caption: Bool? = nil, label: String? = nil
    ) throws(RenderError) -> String {
        var settings = settings(
            .svg, size: size, scale: 1, theme: theme, background: background, style: style, seed: seed, caption: caption
        )
        settings.animation = animation
        settings.label = label
        settings.goal = goal
        return String(decoding: try Renderer.render(count, settings), as: UTF8.self)
    }

    /// A PNG of the count, with its title and description in text chunks: indexed where it has
    /// at most 256 colours, 8-bit RGBA otherwise.
    ///
    /// ```swift
    /// let png = try TallyMarks.png(1_234, size: 512, theme: .dark, background: .paper)
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - size: the longer side in pixels, before `scale`.
    ///   - scale: multiplies every pixel length (2 for @2x assets).
    ///   - theme: the palette; `.auto` (SVG) carries both and follows the viewer's colour scheme.
    ///   - background: `.none` (transparent), `.paper` (the theme's paper) or a colour.
    ///   - style: `.clean` geometry or `.ink`, hand-drawn.
    ///   - seed: the ink style's seed: the same seed, the same wobble.
    ///   - caption: writes the count under the tally; nil: from 10,000 on.
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`).
    /// - Returns: the PNG file's bytes.
    /// - Throws: `RenderError` for a size out of range, or `.formatUnavailable` in a build
    ///   without Cairo.
    public static func png(
        _ count: TallyCount, of goal: TallyCount? = nil, size: Double = Viewport.defaultSide, scale: Double = 1,
        theme: Theme = .light, background: Background = .paper, style: RenderSettings.Style = .clean,
        seed: UInt64 = 0, caption: Bool? = nil
    ) throws(RenderError) -> [UInt8] {
        var settings = settings(
            .png, size: size, scale: scale, theme: theme, background: background, style: style, seed: seed,
            caption: caption)
        settings.goal = goal
        return try Renderer.render(count, settings)
    }

    /// A one-page vector PDF of the count, titled in its metadata.
    ///
    /// ```swift
    /// let pdf = try TallyMarks.pdf(99, size: 300)
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - size: the longer side in points.
    ///   - theme: the palette; `.auto` (SVG) carries both and follows the viewer's colour scheme.
    ///   - background: `.none` (transparent), `.paper` (the theme's paper) or a colour.
    ///   - style: `.clean` geometry or `.ink`, hand-drawn.
    ///   - seed: the ink style's seed: the same seed, the same wobble.
    ///   - caption: writes the count under the tally; nil: from 10,000 on.
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`).
    /// - Returns: the PDF file's bytes (dated from a fixed date: the same bytes every time).
    /// - Throws: `RenderError` for a size out of range, or `.formatUnavailable` in a build
    ///   without Cairo.
    public static func pdf(
        _ count: TallyCount, of goal: TallyCount? = nil, size: Double = Viewport.defaultSide, theme: Theme = .light,
        background: Background = .paper, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
        caption: Bool? = nil
    ) throws(RenderError) -> [UInt8] {
        var settings = settings(
            .pdf, size: size, scale: 1, theme: theme, background: background, style: style, seed: seed,
            caption: caption)
        settings.goal = goal
        return try Renderer.render(count, settings)
    }

    /// The JSON scene (SPEC §5): every mark with its kind, unit, colour, pen and segments.
    ///
    /// ```swift
    /// let scene = try TallyScene(json: try TallyMarks.json(137))
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - size: nil for every mark at its designed pen; a size plans the scene for that many
    ///     pixels (level of detail, pens of at least 1 px) and adds the viewport.
    /// - Returns: the JSON text, one mark a line.
    /// - Throws: `RenderError` for a size out of range.
    public static func json(_ count: TallyCount, size: Double? = nil) throws(RenderError) -> String {
        String(
            decoding: try Renderer.render(count, RenderSettings(format: .json, side: size.map { .longer($0) })),
            as: UTF8.self)
    }

    /// The bytes of any format with every setting (`RenderSettings`): the same pipeline as the
    /// functions above and the command line.
    ///
    /// ```swift
    /// let frame = try TallyMarks.render(60, RenderSettings(format: .svg, frame: .hundred))
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - settings: the format, size, look, motion and planning.
    /// - Returns: the file's bytes.
    /// - Throws: `RenderError` for settings out of range or a format this build cannot write.
    public static func render(_ count: TallyCount, _ settings: RenderSettings) throws(RenderError) -> [UInt8] {
        try Renderer.render(count, settings)
    }

    private static func settings(
        _ format: OutputFormat, size: Double, scale: Double, theme: Theme, background: Background,
        style: RenderSettings.Style, seed: UInt64, caption: Bool?
    ) -> RenderSettings {
        RenderSettings(
            format: format, side: .longer(size), scale: scale,
            appearance: Appearance(theme: theme, background: background),
            style: style, seed: seed, caption: caption)
    }
}
