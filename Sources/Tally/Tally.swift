@_exported import TallyEncoding
@_exported import TallyGeometry
@_exported import TallyRender
@_exported import TallyStyle

/// Fractal Completion Tallies in one import: `import Tally`.
///
/// Each function draws a count with SPEC's defaults (a 256 px image; an SVG that follows the
/// viewer's colour scheme on a transparent background, a PNG or PDF light on its paper; the
/// clean style; the fit that fills the image; the count written under it from 10,000 on)
/// unless told otherwise. `svg`, `png` and `pdf` take the same parameters in the same order,
/// and an argument left out is the format's default (`Appearance.default(for:)`), so the
/// defaults live in one place.
///
/// ```swift
/// import Tally
///
/// let svg = try TallyMarks.svg(137)                              // a 256 px SVG document
/// let png = try TallyMarks.png(1_234, size: 512, theme: .dark)   // PNG bytes
/// let scene = TallyMarks.scene(137)                              // the marks themselves
/// let again = try TallyScene(json: TallyMarks.json(137))         // the JSON scene, read back
/// ```
///
/// For every setting at once (frames pinned for a flipbook, colours, margins), build a
/// `RenderSettings` and call `TallyMarks.render(_:as:_:)`.
///
/// Why a namespace and not free functions: `TallyMarks.svg(137)` says what it draws at the call
/// site, as `137 tally marks` does, and a namespace named unlike the module keeps
/// module-qualified names (`Tally.TallyScene`) writable.
public enum TallyMarks {
    /// The marks of a count: what every backend draws.
    ///
    /// ```swift
    /// let boxes = TallyMarks.scene(137).marks.filter { $0.kind == .box }.count   // 1
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`): the cells still to fill are
    ///     `remaining` marks.
    ///   - frame: a larger frame to draw in (SPEC §2, `--frame`); nil for the count's own.
    ///   - detail: `.full` for every mark, or `.automatic(pixelsPerUnit:)` for what stays legible.
    public static func scene(
        _ count: TallyCount, of goal: TallyCount? = nil, frame: UnitLevel? = nil, detail: Detail = .full
    ) -> TallyScene {
        TallyScene(count: count, frame: frame, detail: detail, goal: goal)
    }

    /// An SVG document of the count.
    ///
    /// ```swift
    /// let svg = try TallyMarks.svg(6_200, of: 10_000, size: 512)
    /// let plusOne = try TallyMarks.svg(25, animation: .since(24))   // only the new mark draws in
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`): the goal's frame with the
    ///     cells still to fill outlined, titled "6,200 of 10,000 (62%)".
    ///   - size: the longer side in pixels, before `scale` (its `width` and `height`).
    ///   - scale: multiplies every pixel length (2 for @2x assets).
    ///   - theme: the palette; nil: `.auto`, both palettes, following the viewer's colour scheme.
    ///   - background: `.none` (transparent), `.paper` (the theme's paper) or a colour; nil:
    ///     `.none`.
    ///   - style: `.clean` geometry or `.ink`, hand-drawn.
    ///   - seed: the ink style's seed: the same seed, the same wobble.
    ///   - caption: writes the count under the tally; nil: from 10,000 on.
    ///   - label: the accessible title instead of "137 tally marks".
    ///   - animation: `.all` draws every mark in; `.since(count)` only those new since it (SVG
    ///     only, so only this function takes it).
    /// - Returns: the SVG document, UTF-8 text.
    /// - Throws: `RenderError` for a size out of range or an animation from a larger count.
    public static func svg(
        _ count: TallyCount, of goal: TallyCount? = nil, size: Double = Viewport.defaultSide, scale: Double = 1,
        theme: Theme? = nil, background: Background? = nil, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
        caption: Bool? = nil, label: String? = nil, animation: MarkAnimation = .none
    ) throws(RenderError) -> String {
        var settings = settings(
            .svg, goal, size, scale, theme, background, style, seed, caption, label)
        settings.animation = animation
        return String(decoding: try Renderer.render(count, as: .svg, settings), as: UTF8.self)
    }

    /// A PNG of the count, with its title and description in text chunks: indexed where it has
    /// at most 256 colours, 8-bit RGBA otherwise.
    ///
    /// ```swift
    /// let png = try TallyMarks.png(1_234, size: 512, theme: .dark)
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`).
    ///   - size: the longer side in pixels, before `scale`.
    ///   - scale: multiplies every pixel length (2 for @2x assets).
    ///   - theme: the palette; nil: `.light` (a PNG cannot follow the viewer).
    ///   - background: `.none` (transparent), `.paper` (the theme's paper) or a colour; nil:
    ///     `.paper`.
    ///   - style: `.clean` geometry or `.ink`, hand-drawn.
    ///   - seed: the ink style's seed: the same seed, the same wobble.
    ///   - caption: writes the count under the tally; nil: from 10,000 on.
    ///   - label: the title in the PNG's text chunk instead of "137 tally marks".
    /// - Returns: the PNG file's bytes.
    /// - Throws: `RenderError` for a size out of range, or `.formatUnavailable` in a build
    ///   without Cairo.
    public static func png(
        _ count: TallyCount, of goal: TallyCount? = nil, size: Double = Viewport.defaultSide, scale: Double = 1,
        theme: Theme? = nil, background: Background? = nil, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
        caption: Bool? = nil, label: String? = nil
    ) throws(RenderError) -> [UInt8] {
        try Renderer.render(
            count, as: .png, settings(.png, goal, size, scale, theme, background, style, seed, caption, label))
    }

    /// A one-page vector PDF of the count, titled in its metadata.
    ///
    /// ```swift
    /// let pdf = try TallyMarks.pdf(99, size: 300)
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`).
    ///   - size: the longer side in points, before `scale`.
    ///   - scale: multiplies every length.
    ///   - theme: the palette; nil: `.light` (a PDF cannot follow the viewer).
    ///   - background: `.none` (transparent), `.paper` (the theme's paper) or a colour; nil:
    ///     `.paper`.
    ///   - style: `.clean` geometry or `.ink`, hand-drawn.
    ///   - seed: the ink style's seed: the same seed, the same wobble.
    ///   - caption: writes the count under the tally; nil: from 10,000 on.
    ///   - label: the document's title instead of "137 tally marks".
    /// - Returns: the PDF file's bytes (dated from a fixed date: the same bytes every time).
    /// - Throws: `RenderError` for a size out of range, or `.formatUnavailable` in a build
    ///   without Cairo.
    public static func pdf(
        _ count: TallyCount, of goal: TallyCount? = nil, size: Double = Viewport.defaultSide, scale: Double = 1,
        theme: Theme? = nil, background: Background? = nil, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
        caption: Bool? = nil, label: String? = nil
    ) throws(RenderError) -> [UInt8] {
        try Renderer.render(
            count, as: .pdf, settings(.pdf, goal, size, scale, theme, background, style, seed, caption, label))
    }

    /// The JSON scene (SPEC §5): every mark with its kind, unit, colour, pen and segments.
    ///
    /// ```swift
    /// let scene = try TallyScene(json: TallyMarks.json(137))
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`).
    ///   - size: nil for every mark at its designed pen; a size plans the scene for that many
    ///     pixels (level of detail, pens of at least 1 px) and adds the viewport.
    /// - Returns: the JSON text, one mark a line.
    /// - Throws: `RenderError` for a size out of range.
    public static func json(_ count: TallyCount, of goal: TallyCount? = nil, size: Double? = nil) throws(RenderError)
        -> String
    {
        let settings = RenderSettings(side: size.map { .longer($0) }, goal: goal)
        return String(decoding: try Renderer.render(count, as: .json, settings), as: UTF8.self)
    }

    /// The bytes of any format with every setting (`RenderSettings`): the same pipeline as the
    /// functions above and the command line.
    ///
    /// ```swift
    /// let frame = try TallyMarks.render(60, as: .svg, RenderSettings(frame: .hundred))
    /// ```
    /// - Parameters:
    ///   - count: the count to draw, 0 to Int64.max (an integer literal works: `137`).
    ///   - format: SVG, PNG, PDF or the JSON scene.
    ///   - settings: the size, look, motion and planning.
    /// - Returns: the file's bytes.
    /// - Throws: `RenderError` for settings out of range or a format this build cannot write.
    public static func render(
        _ count: TallyCount, as format: OutputFormat, _ settings: RenderSettings = RenderSettings()
    ) throws(RenderError) -> [UInt8] {
        try Renderer.render(count, as: format, settings)
    }

    /// The settings of the functions above: what is nil is the format's default.
    private static func settings(
        _ format: OutputFormat, _ goal: TallyCount?, _ size: Double, _ scale: Double, _ theme: Theme?,
        _ background: Background?, _ style: RenderSettings.Style, _ seed: UInt64, _ caption: Bool?, _ label: String?
    ) -> RenderSettings {
        RenderSettings(
            side: .longer(size), scale: scale,
            appearance: Appearance.default(for: format, theme: theme, background: background),
            style: style, seed: seed, label: label, caption: caption, goal: goal)
    }
}
