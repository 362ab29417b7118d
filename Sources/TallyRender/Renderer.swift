import TallyEncoding
import TallyGeometry
import TallySVG
import TallyStyle
import TallyTerminal

#if Cairo
import TallyCairo
#endif

/// The output formats of SPEC §5.
public enum OutputFormat: String, CaseIterable, Sendable {
    case svg, png, pdf, json

    /// Whether the format is bytes rather than text (PNG, PDF).
    public var isBinary: Bool { self == .png || self == .pdf }

    /// The format a path's extension names, if any (the command line's `-o`).
    package init?(pathExtension path: String) {
        guard let ext = lowercasedExtension(of: path) else { return nil }
        self.init(rawValue: ext)
    }
}

/// The extension of a path's last component, lowercased: `t.SVG` → `svg`; nil for none, a dot
/// file or a name ending in a dot (`out`, `.hidden`, `t.`, `/dev/null`).
package func lowercasedExtension(of path: String) -> String? {
    // The last name, after the last slash byte (a path is bytes to the kernel).
    let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.index(after: $0)...]) } ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
        return nil
    }
    return name[name.index(after: dot)...].lowercased()
}

/// Everything but the count and the format that decides the bytes: size, look, motion and
/// planning. The format is said where the bytes are asked for (`Renderer.render(_:as:_:)`), so
/// one set of settings draws every format and nothing can change it on the way.
public struct RenderSettings: Hashable, Sendable {
    /// Geometric strokes, or hand-drawn ones (SPEC §4).
    public enum Style: String, CaseIterable, Sendable { case clean, ink }

    /// The side the caller fixed; nil: the default longer side of 256 px.
    public var side: Viewport.Side?
    /// Multiplies every pixel length (2 for @2x assets).
    public var scale: Double
    /// The margin in pixels on every side, inside the size; nil: the default margin
    /// (`Proportions.marginShare` of the tally's shorter side, at least 2 px).
    public var padding: Double?
    /// The theme, colour overrides and background; nil: the format's default
    /// (`Appearance.default(for:)`), decided when drawn.
    public var appearance: Appearance?
    /// Clean or ink.
    public var style: Style
    /// The ink style's seed.
    public var seed: UInt64
    /// Which part of the frame is shown (SPEC §2); nil: `.content`, or `.frame` when a frame is pinned.
    public var fit: Fit?
    /// A frame pinned for a sequence of counts (SPEC §2, `--frame`); nil: each count's own frame.
    public var frame: UnitLevel?
    /// nil: automatic, except for JSON without a size, which is full (SPEC §6).
    public var detail: Detail.Mode?
    /// The accessible title instead of "137 tally marks".
    public var label: String?
    /// Write the count under the tally (`--caption`, `--no-caption`), in the core's stroke font;
    /// nil: from 10,000 on (`Magnitude.captioned(_:asked:)`), where the shapes repeat, and
    /// below it by the one digits rule (`Magnitude.writesDigits`): a picture of rows too small
    /// for its gates that has no lens.
    public var caption: Bool?
    /// A lens for the last digits (`--inset`, `--no-inset`, SPEC §2, "A lens for the last
    /// digits"): the twenty-five-unit where the next mark goes, enlarged under a picture of rows
    /// too small for its gates, in room planned from the size and the rows alone (`Lens.Room`);
    /// nil: where there is room, but not in a sequence that keeps one size; true: there too;
    /// false: never (the count is written instead).
    public var inset: Bool?
    /// A goal to draw the count toward (`--of`, SPEC §6): the goal's frame, with the cells still
    /// to fill outlined; nil for none.
    public var goal: TallyCount?
    /// Still, every mark drawing in (`--animate`), or only those new since a count
    /// (`--animate-from`): SVG only (SPEC §4).
    public var animation: MarkAnimation
    /// The PDF's dates, in seconds since 1970 (from `SOURCE_DATE_EPOCH` on the command line).
    public var documentDate: Int64
    /// The proportions the picture is drawn with (SPEC §2's unless `RenderOptions` sets others):
    /// the one value the plan, the scene, its goal's cells and its lens are placed and sized from.
    package var proportions = Proportions.standard

    /// Whether the output has a pixel scale: every format but a JSON scene without a size, which
    /// is the geometry itself (every mark, pens as designed, no caption unless asked for).
    package func isScaled(_ format: OutputFormat) -> Bool { format != .json || side != nil }

    /// The appearance drawn in a format: the one set, else the format's default.
    package func appearance(in format: OutputFormat) -> Appearance { appearance ?? .default(for: format) }

    /// Settings with SPEC's defaults for whatever is not given.
    ///
    /// ```swift
    /// let settings = RenderSettings(side: .longer(512), appearance: Appearance(theme: .dark))
    /// ```
    /// - Parameter appearance: nil for the format's default (SPEC §3): SVG follows the viewer's
    ///   scheme on a transparent background, PNG and PDF are light on their paper.
    public init(
        side: Viewport.Side? = nil, scale: Double = 1, padding: Double? = nil,
        appearance: Appearance? = nil, style: Style = .clean, seed: UInt64 = 0, fit: Fit? = nil,
        frame: UnitLevel? = nil, detail: Detail.Mode? = nil, label: String? = nil, caption: Bool? = nil,
        inset: Bool? = nil, goal: TallyCount? = nil, animation: MarkAnimation = .none,
        documentDate: Int64 = 0
    ) {
        self.side = side
        self.scale = scale
        self.padding = padding
        self.appearance = appearance
        self.style = style
        self.seed = seed
        self.fit = fit
        self.frame = frame
        self.detail = detail
        self.label = label
        self.caption = caption
        self.inset = inset
        self.goal = goal
        self.animation = animation
        self.documentDate = documentDate
    }
}

extension Appearance {
    /// The look a format has when none is asked for (SPEC §3), so a default image reads on a
    /// light page and on a dark one: an SVG carries both palettes and follows the viewer's
    /// colour scheme on a transparent background; a PNG or PDF, which cannot switch, is the
    /// light palette on its paper.
    ///
    /// ```swift
    /// Appearance.default(for: .png)   // light on #FAFAF7
    /// ```
    public static func `default`(for format: OutputFormat) -> Appearance {
        switch format {
        case .svg: Appearance(theme: .auto)
        case .png, .pdf: Appearance(theme: .light, background: .paper)
        case .json: Appearance()
        }
    }

    /// The format's default look with the parts that were chosen in its place: what the options
    /// model and `TallyMarks`' functions draw with.
    package static func `default`(
        for format: OutputFormat, theme: Theme?, overrides: [ColorToken: RGBA] = [:], background: Background?
    ) -> Appearance {
        let defaults = Appearance.default(for: format)
        return Appearance(
            theme: theme ?? defaults.theme, overrides: overrides, background: background ?? defaults.background)
    }
}

/// Which marks of an SVG draw in (SPEC §4).
public enum MarkAnimation: Hashable, Sendable {
    /// A still image.
    case none
    /// Every mark draws in, in count order (`--animate`).
    case all
    /// Only the marks that are new since an earlier count (`--animate-from`): the "+1" moment.
    case since(TallyCount)
}

/// Why a count could not be rendered with some settings; its description says so in words
/// (the command line and the server word the same cases with the options as they were given).
public enum RenderError: Error, Hashable, Sendable {
    case viewport(Viewport.Problem)
    /// `--animate` with a format that cannot move.
    case animationNeedsSVG(OutputFormat)
    /// `MarkAnimation.since` a count beyond the count drawn (`--animate-from`).
    case animationSinceBeyondCount(since: TallyCount, count: TallyCount)
    /// A count that does not fit in the pinned frame (`--frame`).
    case countBeyondFrame(TallyCount, UnitLevel)
    /// A backend that this build does not have.
    case formatUnavailable(OutputFormat)
    /// A backend failed (Cairo's status, say).
    case backend(BackendFailure)
    /// The library that draws the format is not on this machine (libcairo, for PNG and PDF,
    /// which is loaded only when one is drawn); the reason names the package to install.
    case libraryMissing(BackendFailure)
}

#if Cairo
extension RenderError {
    /// A Cairo failure while drawing `format`: a missing library, or Cairo's status.
    init(_ error: CairoError, drawing format: OutputFormat) {
        let failure = BackendFailure(format: format, reason: error.description)
        self = error.isLibraryMissing ? .libraryMissing(failure) : .backend(failure)
    }
}
#endif

/// A backend that failed to draw a format, in the drawing library's own words: Cairo's status,
/// for instance, where memory ran out.
public struct BackendFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The format being drawn.
    public let format: OutputFormat
    /// What failed, in the library's words: "cairo could not create the surface: out of memory".
    public let reason: String

    /// A failure of a format's backend.
    public init(format: OutputFormat, reason: String) {
        self.format = format
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}

extension RenderError: CustomStringConvertible {
    /// The failure in one line: "a side of 20,000 px is too large; images are at most 16,384 px
    /// a side and 64 megapixels".
    public var description: String {
        let limits = Viewport.limitsInWords
        switch self {
        case .viewport(.notPositive(let what, let value)):
            return "the \(what) \(value) must be \(what == "padding" ? "0 or more" : "a positive number")"
        case .viewport(.sideTooSmall(let value)):
            return "a size of \(value) gives a side under 1 px; it must give at least 1 px"
        case .viewport(.paddingTooLarge(let value)):
            return "a padding of \(value) px leaves no room for the tally; it must be less than half the size"
        case .viewport(.sideTooLarge(let value)):
            return "a side of \(Viewport.sideInWords(value)) is too large; \(limits)"
        case .viewport(.tooManyPixels(let value)):
            // Both sides are within the limit by then, so the area is a small whole number.
            return "an image of \(Words.grouped(UInt64(value.rounded()))) pixels is too large; \(limits)"
        case .animationNeedsSVG(let format):
            return "animation is for SVG output; the format is \(format.rawValue)"
        case .animationSinceBeyondCount(let from, let count):
            return "animation from \(from) is past the count \(count); it must be from 0 to the count"
        case .countBeyondFrame(let count, let level):
            return "count \(count) does not fit in a \(level.name) of \(Words.grouped(level.capacity))"
        case .formatUnavailable(let format):
            return
                "format '\(format.rawValue)' is not available in this build of tally, made without its Cairo trait; svg and json are"
        case .backend(let failure):
            return failure.description
        case .libraryMissing(let failure):
            return "\(failure.format.rawValue) needs the Cairo library: \(failure.reason)"
        }
    }
}

/// count → scene → bytes. Every setting is checked, and every limit, before a mark is made.
public enum Renderer {
    /// What a picture will be before any mark is made: its frame, its level of detail, its
    /// caption, its lens's room and the viewport that holds them all, which is the image's pixel
    /// size (SPEC §2, "One footprint": the size, the options and the rows drawn decide it, never
    /// the last digits). `layout` draws into exactly this; a caller that needs only the size (a
    /// property over every count) stops here.
    package struct Plan: Sendable {
        /// The frame the picture is drawn in.
        package let canvas: Canvas
        /// The level of detail at the image's scale.
        package let detail: Detail
        /// The caption, where the picture writes its count.
        package let caption: CaptionLayout?
        /// The viewport of the picture and its caption, before the lens's room.
        package let picture: Viewport
        /// The lens's room at the file's density, where the picture has a lens.
        package let lens: Lens.Room?
        /// The image: the picture's viewport, grown by the lens's room where there is one.
        package let viewport: Viewport
    }

    /// The plan of a count's picture with these settings (`Plan`): every setting and every
    /// limit checked, no mark made.
    ///
    /// The order is SPEC §2's: the frame, then the fit, then the viewport (size, margin and the
    /// caption's band), and only then the level of detail and the whole-pixel placement at the
    /// final output scale, and the lens's room under the picture.
    package static func plan(_ count: TallyCount, _ format: OutputFormat, _ settings: RenderSettings)
        throws(RenderError) -> Plan
    {
        if let pinned = settings.frame, pinned.capacity < count.value { throw .countBeyondFrame(count, pinned) }
        // With a goal the frame and the fit hold the goal too, so its remaining cells are shown.
        let extent = settings.goal.map { max($0, count) } ?? count
        let own = UnitLevel.frame(for: extent)
        let proportions = settings.proportions
        let canvas = Canvas(level: max(settings.frame ?? own, own), proportions)
        let fit = settings.fit ?? (settings.frame == nil ? .content : .frame)
        let side = settings.side ?? .longer(Viewport.defaultSide)
        let shown = canvas.shown(fit, for: extent, proportions)
        let scaled = settings.isScaled(format)
        var viewport: Viewport
        var caption: CaptionLayout?
        let asked = settings.caption ?? (scaled ? nil : false)
        // A sequence in one frame (pinned, or the whole frame shown) keeps one size: the band
        // for the caption is there for every count of a frame that holds 10,000, sized for its
        // widest count, and written under the counts that have one.
        let oneSize = settings.frame != nil || fit == .frame
        let sizing = oneSize ? [canvas.level.capacity, canvas.level.capacity - 1] : [count.value]
        // Only where the picture may change size do the caption below 10,000 and the inset come
        // by default: a sequence in one frame (pinned, the whole frame shown, or toward a goal)
        // keeps one size, and the band or a copy would come and go with the count.
        let mayChangeSize = !oneSize && settings.goal == nil
        // The caption's rule and the inset are planned at one density and drawn at the file's,
        // so a `--scale 2` file is its 1x file's picture twice the size.
        let density = settings.scale
        // The lens room the digits rule planned for the picture without a band (nil: not
        // planned), drawn as planned where no band comes.
        var plannedRoom: Lens.Room??
        if Magnitude.captioned(sizing[0], asked: asked) {
            (caption, viewport) = try captioned(count, sizing, shown, side, settings)
            if !Magnitude.captioned(count, asked: asked) { caption = nil }
        } else {
            viewport = try self.viewport(shown, side, settings)
            // Below 10,000, by default, by the one digits rule (SPEC §2): a picture of rows too
            // small for its gates writes its count where it has no lens. Both depend on the
            // picture's frame, scale and size alone.
            let ppu = viewport.pixelsPerUnit / density
            if asked == nil && mayChangeSize && (settings.detail ?? .automatic) == .automatic {
                let room =
                    settings.inset == false
                    ? nil
                    : Lens.Room.plan(
                        frame: canvas.level, pixelsPerUnit: ppu,
                        image: (viewport.width / density, viewport.height / density), side: side.pixels,
                        proportions)
                // Planned once: a picture that writes its digits has no lens (nil), and is not
                // planned again under its band.
                plannedRoom = .some(room)
                if Magnitude.writesDigits(frame: canvas.level, pixelsPerUnit: ppu, hasLens: room != nil, proportions) {
                    (caption, viewport) = try captioned(count, sizing, shown, side, settings)
                }
            }
        }
        if settings.animation != .none && format != .svg {
            throw .animationNeedsSVG(format)
        }
        if case .since(let from) = settings.animation, from > count {
            throw .animationSinceBeyondCount(since: from, count: count)
        }
        let mode = settings.detail ?? (scaled ? .automatic : .full)
        let detail: Detail = mode == .full ? .full : .automatic(pixelsPerUnit: viewport.pixelsPerUnit)
        // Units at whole-pixel steps, from a pixel corner, centred (SPEC §2, "Small sizes").
        viewport = viewport.aligned(to: canvas.shown(fit, for: extent, detail: detail, proportions))
        let picture = viewport
        var lens: Lens.Room?
        // A lens only when asked in a sequence that keeps one size. The default's room is the one
        // the digits rule planned where no band came since (the same picture and viewport); the
        // copy is drawn at the file's density, twice the size in a `--scale 2` file.
        if settings.inset ?? mayChangeSize, case .automatic(let pixelsPerUnit) = detail {
            let planned: Lens.Room?? = settings.inset == nil ? plannedRoom : nil
            let room =
                planned
                ?? Lens.Room.plan(
                    frame: canvas.level, pixelsPerUnit: pixelsPerUnit / density,
                    image: (viewport.width / density, viewport.height / density), side: side.pixels,
                    proportions)
            // An image the lens would take past SPEC §6's limits (64 megapixels) has none.
            if let room = room?.scaled(by: density), let grown = try? viewport.grown(by: room.pixels, right: false) {
                viewport = grown
                lens = room
            }
        }
        return Plan(
            canvas: canvas, detail: detail, caption: caption, picture: picture, lens: lens, viewport: viewport)
    }

    /// The scene the settings draw for a count, with the viewport it is drawn into (the plan's,
    /// `plan(_:_:_:)`), and for `--animate-from` which of its marks are new since the earlier
    /// count: the marks at the plan's detail, the caption in its band and the lens in its room,
    /// then, for every image with a size, the pen floor and in the clean style the pixel grid.
    package static func layout(_ count: TallyCount, _ format: OutputFormat, _ settings: RenderSettings)
        throws(RenderError)
        -> (
            scene: TallyScene, viewport: Viewport, newMarks: [Bool]?
        )
    {
        let plan = try plan(count, format, settings)
        let (canvas, detail, viewport) = (plan.canvas, plan.detail, plan.viewport)
        let proportions = settings.proportions
        var scene = TallyScene(
            count: count, frame: canvas.level, detail: detail, goal: settings.goal, proportions: proportions)
        if let caption = plan.caption { scene.append(caption.caption(in: plan.picture, over: scene.marks)) }
        if let room = plan.lens, case .automatic(let pixelsPerUnit) = detail {
            scene.append(
                lens: Lens.marks(
                    count: count.value, frame: canvas.level, room: room, pixelsPerUnit: pixelsPerUnit,
                    image: viewport.visible, picture: plan.picture.height, proportions))
        }
        let scaled = settings.isScaled(format)
        var newMarks: [Bool]?
        if case .since(let from) = settings.animation {
            // The earlier count in the same frame, so forms that depend on the frame compare
            // alike; compared as designed, before the ink style, the floor and the grid move
            // anything.
            newMarks = scene.marksNew(
                since: TallyScene(count: from, frame: canvas.level, detail: detail, proportions: proportions))
        }
        if settings.style == .ink { scene = InkStyle.apply(to: scene, seed: settings.seed) }
        // The scene is adjusted in place from here: nothing else holds its marks.
        if scaled { scene.floorPens(pixelsPerUnit: viewport.pixelsPerUnit) }
        if scaled && settings.style == .clean {
            // Axis-aligned pens on whole pixels, so equal marks look equal; the same for every
            // format, so an SVG drawn at its own width and height shows the PNG's pixels.
            scene.snapToPixels(pixelsPerUnit: viewport.pixelsPerUnit, visible: viewport.visible)
        }
        return (scene, viewport, newMarks)
    }

    /// The caption of a count (SPEC §2, "Magnitude in the picture") and the viewport with room for it.
    private static func captioned(
        _ count: TallyCount, _ sizing: [UInt64], _ shown: Rect, _ side: Viewport.Side,
        _ settings: RenderSettings
    ) throws(RenderError) -> (CaptionLayout?, Viewport) {
        do {
            return try CaptionLayout.fit(
                count, sizing: sizing, side: side.pixels * settings.scale, density: settings.scale
            ) {
                (footer: Double, footerWidth: Double) throws(Viewport.Problem) -> Viewport in
                try Viewport(
                    content: shown, side: side, scale: settings.scale, padding: settings.padding, footer: footer,
                    footerWidth: footerWidth)
            }
        } catch {
            throw .viewport(error)
        }
    }

    /// The bytes of a count in a format with these settings: what `tally render` writes.
    ///
    /// ```swift
    /// let png = try Renderer.render(137, as: .png, RenderSettings(side: .longer(512)))
    /// ```
    /// - Throws: `RenderError` for settings out of range or a format this build cannot write.
    public static func render(
        _ count: TallyCount, as format: OutputFormat, _ settings: RenderSettings = RenderSettings()
    ) throws(RenderError) -> [UInt8] {
        try render(layout(count, format, settings), as: format, settings)
    }

    /// A scene you made or changed (`TallyScene(json:)`, a transformed scene, an ink-styled one),
    /// drawn with the marks it has, in a format at the settings' size: the fit and margin
    /// apply, the level of detail is not decided again, and pens are floored at 1 px.
    ///
    /// ```swift
    /// let recoloured = TallyScene(count: scene.count, canvas: scene.canvas,
    ///                        marks: scene.marks.map { var m = $0; m.color = .accent; return m })
    /// let svg = try Renderer.render(scene: recoloured, as: .svg)
    /// ```
    /// - Throws: `RenderError` for settings out of range, or a format this build cannot write.
    public static func render(
        scene: TallyScene, as format: OutputFormat, _ settings: RenderSettings = RenderSettings()
    ) throws(RenderError) -> [UInt8] {
        let fit = settings.fit ?? .content
        // The part shown is found with the settings' proportions: a scene drawn with others is
        // drawn again with the settings it was drawn with.
        let shown = scene.canvas.shown(fit, for: scene.count, settings.proportions)
        let viewport = try viewport(shown, settings.side ?? .longer(Viewport.defaultSide), settings)
        var drawn = scene
        if settings.isScaled(format) {
            drawn.floorPens(pixelsPerUnit: viewport.pixelsPerUnit)
        }
        var settings = settings
        settings.animation = .none
        return try render((drawn, viewport, nil), as: format, settings)
    }

    /// The bytes of a layout made by `layout(_:_:_:)` with the same format and settings, for a caller that
    /// needs the layout first (a batch sizes its memory budget by the viewport).
    /// - Parameter svgID: the SVG root's id; nil, the default, for one unique to the image
    ///   (SPEC §2, "Inline-safe SVG"); package-only.
    package static func render(
        _ layout: (scene: TallyScene, viewport: Viewport, newMarks: [Bool]?), as format: OutputFormat,
        _ settings: RenderSettings,
        svgID: String? = nil
    ) throws(RenderError) -> [UInt8] {
        let (scene, viewport, newMarks) = layout
        switch format {
        case .json:
            return SceneJSON.encodedBytes(scene, viewport: settings.side == nil ? nil : viewport)
        case .svg:
            let animated: AnimatedMarks
            switch settings.animation {
            case .none:
                animated = .none
            case .all:
                animated = .all
            case .since:
                let new = newMarks ?? []
                animated = .only(Set(new.indices.filter { new[$0] }))
            }
            let options = SVGOptions(
                appearance: settings.appearance(in: format), label: settings.label, animated: animated, id: svgID)
            return SVGRenderer.render(scene, viewport: viewport, options: options)
        case .png, .pdf:
            #if Cairo
            let options = CairoOptions(
                appearance: settings.appearance(in: format),
                title: settings.label ?? Words.title(for: scene.count, goal: scene.goal),
                description: Words.description(for: scene.count), documentDate: settings.documentDate)
            do {
                return format == .png
                    ? try CairoRenderer.png(scene, viewport: viewport, options: options)
                    : try CairoRenderer.pdf(scene, viewport: viewport, options: options)
            } catch {
                throw RenderError(error, drawing: format)
            }
            #else
            // A build without the Cairo trait (`--disable-default-traits`) draws SVG and JSON only.
            throw .formatUnavailable(format)
            #endif
        }
    }

    private static func viewport(_ content: Rect, _ side: Viewport.Side, _ settings: RenderSettings) throws(RenderError)
        -> Viewport
    {
        do {
            return try Viewport(content: content, side: side, scale: settings.scale, padding: settings.padding)
        } catch {
            throw .viewport(error)
        }
    }
}

extension Renderer {
    /// `-f term` (SPEC §6): the count as a preview in braille cells, `columns` wide. The scene is
    /// planned as an image of `2 × columns` pixels across (a braille cell is 2 × 4 square dots),
    /// so the level of detail follows the cell resolution; size and scale settings do not apply.
    ///
    /// The caption (SPEC §2, "Magnitude in the picture") is printed as text under the picture,
    /// every digit where they fit the columns and the short form where they do not, rather than
    /// drawn in dots.
    ///
    /// - Parameters:
    ///   - dark: the dark palette, the light one, or nil where the terminal's background is not
    ///     known: ink in its own foreground and mid tones that read on any background.
    ///   - colors: plain characters, or ANSI colours in 256 or 24-bit.
    /// - Throws: `RenderError` for settings the renderer refuses (a count beyond its frame).
    package static func terminal(
        _ count: TallyCount, _ settings: RenderSettings, columns: Int, dark: Bool?, colors: TerminalColors
    ) throws(RenderError) -> String {
        var settings = settings
        settings.scale = 1
        settings.animation = .none
        // The preview fits a terminal: at most `lines(columns:)` lines, the caption's included.
        // A picture too tall at the full width (a lens under two squares, a block of rows) is
        // planned narrower, in steps of a cell, until it fits.
        let limit = lines(columns: columns)
        let palette: TerminalPalette =
            dark.map { .theme(settings.appearance(in: .svg).palette(dark: $0)) } ?? .anyBackground
        var width = columns * 2
        var text: String
        var captioned: Bool
        repeat {
            var layout = try self.layout(count, .svg, settings, width: width)
            // As wide as the columns whatever the picture's width, the picture centred. The
            // caption, by SPEC §2's rules (from 10,000, or the one digits rule below it), is
            // printed as text under it, never drawn in dots (the preview leaves its glyphs out).
            layout.viewport = layout.viewport.widened(to: Double(columns * 2))
            captioned = layout.scene.marks.contains { $0.kind == .caption }
            text = TerminalRenderer.render(layout.scene, viewport: layout.viewport, palette: palette, colors: colors)
            let lines = text.utf8.reduce(captioned ? 1 : 0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            guard lines > limit, width > 8 else { break }
            // In proportion, and at least a cell narrower: a picture's height follows its width.
            width = max(8, min(width - 2, width * limit / lines / 2 * 2))
        } while true
        if captioned {
            let caption = Words.number(count.value, within: columns)
            let margin = max(0, (columns - caption.count) / 2)
            text += String(repeating: " ", count: margin) + caption + "\n"
        }
        return text
    }

    /// The most lines a terminal preview takes at `columns`: 24 up to 80 columns (a terminal of
    /// 80 × 24 shows it whole), and three tenths of the columns beyond.
    package static func lines(columns: Int) -> Int { max(24, columns * 3 / 10) }

    /// The layout of a terminal preview `width` dots across.
    private static func layout(_ count: TallyCount, _ format: OutputFormat, _ settings: RenderSettings, width: Int)
        throws(RenderError) -> (scene: TallyScene, viewport: Viewport, newMarks: [Bool]?)
    {
        var settings = settings
        settings.side = .width(Double(width))
        return try layout(count, format, settings)
    }
}

extension Renderer {
    /// The scene and viewport `layout(_:_:_:)` makes, for the fuzz targets, which are a package
    /// of their own (SPI, not API: `@_spi(Fuzzing) import Tally`).
    @_spi(Fuzzing) public static func fuzzLayout(
        _ count: TallyCount, _ format: OutputFormat, _ settings: RenderSettings
    ) throws(RenderError) -> (scene: TallyScene, viewport: Viewport) {
        let layout = try layout(count, format, settings)
        return (layout.scene, layout.viewport)
    }
}

#if Cairo
extension Renderer {
    /// PNG image data through tally's deflater and back through zlib, for the fuzz targets (SPI,
    /// not API): the first byte sets the row length (1 to 1,021 bytes), the second the bytes a
    /// pixel (1 to 4), and the rest is the data. False when zlib does not give the data back.
    @_spi(Fuzzing) public static func fuzzDeflate(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return true }
        return ImageDeflater.roundTrips(
            Array(bytes.dropFirst(2)), rowLength: Int(bytes[0]) * 4 + 1, bytesPerPixel: Int(bytes[1] % 4) + 1)
    }
}
#endif
