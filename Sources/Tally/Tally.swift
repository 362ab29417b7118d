@_exported import TallyEncoding
@_exported import TallyGeometry
@_exported import TallyRender
@_exported import TallyStyle

/// Fractal Completion Tallies in one import: `import Tally`.
///
/// Each function draws a count with SPEC's defaults (a 256 px image, the light theme, a
/// transparent background, the clean style, the fit that fills the image) unless told otherwise.
///
/// ```swift
/// import Tally
///
/// let svg = try Tally.svg(137)                               // a 256 px SVG document
/// let png = try Tally.png(1_234, size: 512, theme: .dark)    // 8-bit RGBA PNG bytes
/// let scene = Tally.scene(137)                               // the marks themselves
/// let again = try Scene(json: try Tally.json(137))           // the JSON scene, read back
/// ```
///
/// For every setting at once (frames pinned for a flipbook, colours, margins), build a
/// `RenderSettings` and call `Tally.render(_:_:)`.
public enum Tally {
    /// The marks of a count: what every backend draws.
    /// - Parameters:
    ///   - frame: a larger frame to draw in (SPEC §2, `--frame`); nil for the count's own.
    ///   - detail: `.full` for every mark, or `.automatic(pixelsPerUnit:)` for what stays legible.
    public static func scene(_ count: TallyCount, frame: UnitLevel? = nil, detail: Detail = .full) -> Scene {
        Scene(count: count, frame: frame, detail: detail)
    }

    /// An SVG document of the count.
    /// - Parameters:
    ///   - size: the longer side in pixels (its `width` and `height`; the drawing scales).
    ///   - theme: `.auto` carries both palettes and follows the viewer's colour scheme.
    ///   - animation: `.all` draws every mark in; `.since(count)` only those new since it.
    ///   - caption: writes the count in digits under the tally.
    ///   - label: the accessible title instead of "137 tally marks".
    /// - Throws: `RenderError` for a size out of range or an animation from a larger count.
    public static func svg(_ count: TallyCount, size: Double = Viewport.defaultSide, theme: Theme = .light,
                           background: Background = .none, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
                           animation: Animation = .none, caption: Bool = false, label: String? = nil) throws(RenderError) -> String {
        var settings = settings(.svg, size: size, scale: 1, theme: theme, background: background, style: style, seed: seed, caption: caption)
        settings.animation = animation
        settings.label = label
        return String(decoding: try Renderer.render(count, settings), as: UTF8.self)
    }

    /// An 8-bit RGBA PNG of the count, with its title and description in text chunks.
    /// - Parameters:
    ///   - size: the longer side in pixels, before `scale`.
    ///   - scale: multiplies every pixel length (2 for @2x assets).
    /// - Throws: `RenderError` for a size out of range, or `.formatUnavailable` in a build
    ///   without Cairo.
    public static func png(_ count: TallyCount, size: Double = Viewport.defaultSide, scale: Double = 1, theme: Theme = .light,
                           background: Background = .none, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
                           caption: Bool = false) throws(RenderError) -> [UInt8] {
        try Renderer.render(count, settings(.png, size: size, scale: scale, theme: theme, background: background, style: style,
                                            seed: seed, caption: caption))
    }

    /// A one-page vector PDF of the count, titled in its metadata.
    /// - Throws: `RenderError` for a size out of range, or `.formatUnavailable` in a build
    ///   without Cairo.
    public static func pdf(_ count: TallyCount, size: Double = Viewport.defaultSide, theme: Theme = .light,
                           background: Background = .none, style: RenderSettings.Style = .clean, seed: UInt64 = 0,
                           caption: Bool = false) throws(RenderError) -> [UInt8] {
        try Renderer.render(count, settings(.pdf, size: size, scale: 1, theme: theme, background: background, style: style,
                                            seed: seed, caption: caption))
    }

    /// The JSON scene (SPEC §5): every mark with its kind, unit, colour, pen and segments.
    /// - Parameter size: nil for every mark at its designed pen; a size plans the scene for that
    ///   many pixels (level of detail, pens of at least 1 px) and adds the viewport.
    public static func json(_ count: TallyCount, size: Double? = nil) throws(RenderError) -> String {
        String(decoding: try Renderer.render(count, RenderSettings(format: .json, side: size.map { .longer($0) })), as: UTF8.self)
    }

    /// The bytes of any format with every setting (`RenderSettings`): the same pipeline as the
    /// functions above and the command line.
    public static func render(_ count: TallyCount, _ settings: RenderSettings) throws(RenderError) -> [UInt8] {
        try Renderer.render(count, settings)
    }

    private static func settings(_ format: OutputFormat, size: Double, scale: Double, theme: Theme, background: Background,
                                 style: RenderSettings.Style, seed: UInt64, caption: Bool) -> RenderSettings {
        RenderSettings(format: format, side: .longer(size), scale: scale, appearance: Appearance(theme: theme, background: background),
                       style: style, seed: seed, caption: caption)
    }
}
