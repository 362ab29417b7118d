import TallyEncoding
import TallyGeometry
import TallySVG
import TallyStyle

#if Cairo
import TallyCairo
#endif

/// `tally gallery`: a labelled contact sheet of counts, for documentation pages.
///
/// Each count is drawn with the same settings into a square tile, centred across and standing
/// on the tile's foot, so tallies of different frames share a baseline with their labels just
/// under them; tiles run left to right in rows of up to six, as evenly filled as that allows
/// (seven tiles are two rows of four and three, never six and one). The labels are the counts
/// in the core's stroke font (`Caption`), so SVG, PNG and PDF show the same glyphs whatever
/// fonts a machine has. `--label` titles the sheet.
package enum Gallery {
    /// What a gallery can be written as.
    package enum Format: String, CaseIterable, Sendable {
        case svg, png, pdf, html

        /// The format a path's extension names, if any.
        package init?(pathExtension path: String) {
            guard let ext = lowercasedExtension(of: path) else { return nil }
            self.init(rawValue: ext)
        }

        /// The format each tile is drawn in: its own, and SVG in an HTML page.
        var tileFormat: OutputFormat {
            switch self {
            case .svg, .html: .svg
            case .png: .png
            case .pdf: .pdf
            }
        }
    }

    /// The most counts one sheet shows.
    package static let maximumCounts = 1_000

    /// Sheet geometry in pixels, from `Proportions` (every proportion in one place).
    static let columns = Proportions.galleryColumns
    static let margin = Proportions.galleryMargin
    static let gap = Proportions.galleryGap
    static let labelHeight = Proportions.galleryLabelHeight
    /// The labels' digit height, and the gap above them, in pixels.
    static let labelDigitHeight = Proportions.galleryLabelDigitHeight
    static let labelGap = Proportions.galleryLabelGap

    /// A tile is the square the size asks for, scaled; `--width` or `--height` fix that side too.
    static func tileSide(_ settings: RenderSettings) -> Double {
        (settings.side ?? .longer(defaultTile)).pixels * settings.scale
    }

    static let defaultTile = Proportions.galleryTile

    /// Why a sheet cannot be made.
    package enum Problem: Error, Hashable, Sendable {
        case tooManyCounts(Int)
        /// The sheet passes the image limits (SPEC §6): so many tiles of this side, in pixels.
        case sheetTooLarge(counts: Int, tile: Double, width: Double, height: Double)
        case render(RenderError)
    }

    /// One tile: a count drawn into it and where it sits.
    struct Tile {
        let count: TallyCount
        let scene: TallyScene
        let viewport: Viewport
        /// The top left of the drawing, in whole pixels.
        let origin: Point
        /// The count under the tile, in the sheet's pixels.
        let label: Caption
    }

    struct Sheet {
        let width: Double
        let height: Double
        let tiles: [Tile]
    }

    /// Lays the sheet out; `settings.side` is each tile's side (default 160 px).
    /// - Parameter format: the sheet's format; a PNG's tiles land on its pixel grid.
    static func layout(_ counts: [TallyCount], _ settings: RenderSettings, format: Format = .svg) throws(Problem)
        -> Sheet
    {
        guard counts.count <= maximumCounts else { throw .tooManyCounts(counts.count) }
        var tileSettings = settings
        tileSettings.caption = false
        // A tile is the tally alone, square, as its label says (no inset beside it).
        tileSettings.inset = false
        tileSettings.animation = .none
        tileSettings.side = settings.side ?? .longer(defaultTile)
        // Up to six columns, more for large sheets (about square), rows as evenly filled as that allows.
        let tileCount = max(counts.count, 1)
        var maximumColumns = Self.columns
        while maximumColumns * maximumColumns < tileCount { maximumColumns += 1 }
        let rows = (tileCount + maximumColumns - 1) / maximumColumns
        let columns = (tileCount + rows - 1) / rows
        let tile = tileSide(settings)
        let width = 2 * margin + Double(columns) * tile + Double(columns - 1) * gap
        let height = 2 * margin + Double(rows) * (tile + labelHeight) + Double(max(rows - 1, 0)) * gap
        // The sheet obeys the same limits as any image, checked before anything is drawn.
        guard width <= Viewport.maximumSide, height <= Viewport.maximumSide, width * height <= Viewport.maximumPixels
        else {
            throw .sheetTooLarge(counts: counts.count, tile: tile, width: width, height: height)
        }
        var tiles: [Tile] = []
        for (index, count) in counts.enumerated() {
            let layout: (scene: TallyScene, viewport: Viewport, newMarks: [Bool]?)
            do {
                layout = try Renderer.layout(count, format.tileFormat, tileSettings)
            } catch {
                throw .render(error)
            }
            let column = Double(index % columns)
            let row = Double(index / columns)
            let left = margin + column * (tile + gap)
            let top = margin + row * (tile + labelHeight + gap)
            // Whole pixels, so a PNG tile's pixel grid is the sheet's.
            let origin = Point(
                (left + (tile - layout.viewport.width) / 2).rounded(), top + tile - layout.viewport.height)
            let label = Caption(
                Words.grouped(count.value), height: labelDigitHeight, centreX: left + tile / 2,
                top: top + tile + labelGap)
            tiles.append(
                Tile(count: count, scene: layout.scene, viewport: layout.viewport, origin: origin, label: label))
        }
        return Sheet(width: width.rounded(), height: height.rounded(), tiles: tiles)
    }

    /// A contact sheet of the counts.
    ///
    /// ```swift
    /// let sheet = try Gallery.render([25, 100, 1_000], as: .svg, RenderSettings())
    /// ```
    /// - Parameters:
    ///   - counts: the tiles, in order (at most `maximumCounts`).
    ///   - format: SVG, PNG, PDF or a self-contained HTML page.
    ///   - settings: every tile's look; `side` is each tile's side (default 160 px).
    /// - Returns: the sheet's bytes.
    /// - Throws: `Problem` for too many counts, a sheet past the image limits, or a tile that cannot be drawn.
    package static func render(_ counts: [TallyCount], as format: Format, _ settings: RenderSettings) throws(Problem)
        -> [UInt8]
    {
        let sheet = try layout(counts, settings, format: format)
        let title = settings.label ?? ("Tally gallery: " + (counts.count == 1 ? "1 count" : "\(counts.count) counts"))
        let description = counts.map { Words.grouped($0.value) }.joined(separator: ", ")
        switch format {
        case .svg: return svg(sheet, settings, title: title, description: description)
        case .html: return html(sheet, settings, title: title)
        case .png, .pdf:
            #if Cairo
            var appearance = settings.appearance(in: format.tileFormat)
            if appearance.background == .none { appearance.background = .paper }
            let cairoSheet = CairoSheet(
                width: sheet.width, height: sheet.height,
                items: sheet.tiles.map { CairoSheet.Item(scene: $0.scene, viewport: $0.viewport, origin: $0.origin) },
                labels: sheet.tiles.flatMap(\.label.marks))
            let options = CairoOptions(
                appearance: appearance, title: title, description: description, documentDate: settings.documentDate)
            do {
                return format == .png
                    ? try CairoRenderer.png(cairoSheet, options: options)
                    : try CairoRenderer.pdf(cairoSheet, options: options)
            } catch {
                throw .render(RenderError(error, drawing: format.tileFormat))
            }
            #else
            throw .render(.formatUnavailable(format.tileFormat))
            #endif
        }
    }

    /// Writes a tile's SVG into the sheet or page, its ids the document's and its number
    /// (`gallery-3f9a0c41b2d7-2`), so two tiles of one count, or tiles of two sheets inlined in
    /// one page, never share an id (SPEC §2, "Inline-safe SVG").
    private static func appendTile(
        _ tile: Tile, _ index: Int, _ settings: RenderSettings, nested: Bool, ids: inout SVGIDs,
        to out: inout TextBuffer
    ) {
        let appearance = settings.appearance(in: .svg)
        // A tile lies on the sheet's own paper (or colour), never on an unknown page, so it is
        // drawn with the full palettes over that paper, not auto's mid tones (SPEC §3).
        let background = appearance.background == .none ? Background.paper : appearance.background
        let options = SVGOptions(
            appearance: Appearance(theme: appearance.theme, overrides: appearance.overrides, background: background),
            position: nested ? (tile.origin.x, tile.origin.y) : nil)
        ids.withNested(index + 1) { tileIDs in
            SVGRenderer.write(tile.scene, viewport: tile.viewport, options: options, ids: &tileIDs, to: &out)
        }
    }

    /// What the sheet's own style rules select: its paper, and its labels.
    private enum SheetPart { case paper, label }

    /// The sheet's paper and label colours as CSS, following the theme as the tallies do;
    /// `selector` writes what each rule selects.
    private static func appendSheetStyle(
        _ out: inout TextBuffer, _ settings: RenderSettings, selector: (inout TextBuffer, SheetPart) -> Void
    ) {
        let appearance = settings.appearance(in: .svg)
        var background = appearance.background
        if background == .none { background = .paper }
        let sheetAppearance = Appearance(
            theme: appearance.theme, overrides: appearance.overrides, background: background)
        func appendRules(dark: Bool) {
            let color = sheetAppearance.backgroundColor(dark: dark)?.css ?? "none"
            let label = sheetAppearance.palette(dark: dark).c2.css
            selector(&out, .paper)
            out.append("{background:\(color);fill:\(color)}")
            selector(&out, .label)
            out.append("{stroke:\(label);color:\(label)}")
        }
        appendRules(dark: appearance.theme == .dark)
        if appearance.theme == .auto {
            out.append("@media (prefers-color-scheme:dark){")
            appendRules(dark: true)
            out.append("}")
        }
    }

    private static func svg(_ sheet: Sheet, _ settings: RenderSettings, title: String, description: String) -> [UInt8] {
        var out = TextBuffer(capacity: 4096 + sheet.tiles.count * 2048)
        // The sheet's id is `gallery-` and its digest, and its tiles' derive from it.
        var ids = SVGIDs(explicit: nil, prefix: "gallery-")
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"")
        ids.append(to: &out)
        out.append("\" width=\"")
        out.append(sheet.width, digits: 0)
        out.append("\" height=\"")
        out.append(sheet.height, digits: 0)
        out.append("\" viewBox=\"0 0 ")
        out.append(sheet.width, digits: 0)
        out.append(" ")
        out.append(sheet.height, digits: 0)
        out.append("\" role=\"img\" aria-labelledby=\"")
        ids.append(to: &out, suffix: "-title")
        out.append(byte: UInt8(ascii: " "))
        ids.append(to: &out, suffix: "-desc")
        out.append("\">\n<title id=\"")
        ids.append(to: &out, suffix: "-title")
        out.append("\">\(XMLText.escaped(title))</title>\n<desc id=\"")
        ids.append(to: &out, suffix: "-desc")
        out.append("\">\(description)</desc>\n<style>")
        appendSheetStyle(&out, settings) { out, part in
            ids.appendScope(to: &out)
            out.append(part == .paper ? ".paper" : ".count")
        }
        ids.appendScope(to: &out)
        out.append(".count{fill:none;stroke-linecap:round;stroke-linejoin:round;stroke-width:")
        out.append(StrokeFont.pen * labelDigitHeight / StrokeFont.capHeight, digits: 3, leadingZero: false)
        out.append("}</style>\n")
        out.append("<rect class=\"paper\" width=\"100%\" height=\"100%\"/>\n")
        for (index, tile) in sheet.tiles.enumerated() {
            appendTile(tile, index, settings, nested: true, ids: &ids, to: &out)
            // The label in strokes, as the PNG and PDF draw it; the title and desc carry the text.
            out.append("<path class=\"count\" d=\"")
            for mark in tile.label.marks { SVGRenderer.appendPathData(&out, mark, digits: 2) }
            out.append("\"/>\n")
        }
        out.append("</svg>\n")
        return ids.finish(out)
    }

    private static func html(_ sheet: Sheet, _ settings: RenderSettings, title: String) -> [UInt8] {
        let tile = tileSide(settings)
        var out = TextBuffer(capacity: 4096 + sheet.tiles.count * 2048)
        out.append(
            """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>\(XMLText.escaped(title))</title>
            <style>

            """)
        appendSheetStyle(&out, settings) { out, part in out.append(part == .paper ? "body" : "figcaption") }
        out.append(
            """

            body{margin:0;padding:\(Int(margin))px;font:13px/1.3 system-ui,sans-serif}
            main{display:grid;grid-template-columns:repeat(auto-fill,\(Int(tile))px);gap:\(Int(gap))px}
            figure{margin:0;display:flex;flex-direction:column;align-items:center}
            figure>div{width:\(Int(tile))px;height:\(Int(tile))px;display:flex;align-items:flex-end;justify-content:center}
            figcaption{margin-top:4px}
            </style></head><body>
            <main>

            """)
        // The page has no element of its own id; its tiles' ids derive from its digest.
        var ids = SVGIDs(explicit: nil, prefix: "gallery-")
        for (index, tile) in sheet.tiles.enumerated() {
            out.append("<figure><div>")
            appendTile(tile, index, settings, nested: false, ids: &ids, to: &out)
            out.append("</div><figcaption>\(Words.grouped(tile.count.value))</figcaption></figure>\n")
        }
        out.append("</main>\n</body></html>\n")
        return ids.finish(out)
    }
}
