#if Cairo
import CCairo
import TallyBadge
import TallyGeometry
import TallyPOSIX
import TallyStyle

/// What a PNG or PDF carries besides the scene.
package struct CairoOptions: Hashable, Sendable {
    /// The palette, theme and background.
    package var appearance: Appearance
    /// The accessible title ("137 tally marks", or the user's label) and the structure in words.
    package var title: String
    /// The structure in words ("1 thousand-row, 2 hundred-blocks, …"): the PNG's Description chunk, the PDF's subject.
    package var description: String
    /// The PDF's creation and modification date, as seconds since 1970 (SPEC §5: from
    /// `SOURCE_DATE_EPOCH`, else fixed), so the bytes stay the same from run to run.
    package var documentDate: Int64

    /// - Parameters:
    ///   - title: any text; control characters and Unicode noncharacters are replaced by U+FFFD
    ///     (`MetadataText`), so every label fits a PDF's metadata and a PNG's text chunks.
    package init(appearance: Appearance = Appearance(), title: String, description: String, documentDate: Int64 = 0) {
        self.appearance = appearance
        self.title = MetadataText.cleaned(title)
        self.description = MetadataText.cleaned(description)
        self.documentDate = documentDate
    }
}

/// What a Cairo page holds: tallies placed in pixels, and labels (a gallery's captions, in the
/// core's stroke font); a single image is a sheet with one tally filling it.
package struct CairoSheet: Sendable {
    package struct Item: Sendable {
        package var scene: TallyScene
        package var viewport: Viewport
        /// The pixel position of the viewport's top left corner on the sheet.
        package var origin: Point
        package init(scene: TallyScene, viewport: Viewport, origin: Point) {
            self.scene = scene
            self.viewport = viewport
            self.origin = origin
        }
    }

    package var width: Double
    package var height: Double
    package var items: [Item]
    /// Marks drawn on the sheet itself, in pixels (a gallery's labels): strokes, never text, so
    /// the bytes do not depend on the fonts a machine has.
    package var labels: [Mark]
    /// A badge drawn on the sheet (SPEC §7), its pixels at scale 1 multiplied by `scale`.
    package var badge: Badge?
    /// The colours given to the badge's plates (`--color`, `--label-color`).
    package var badgePlates = BadgePlates()
    package var scale = 1.0

    package init(width: Double, height: Double, items: [Item], labels: [Mark] = []) {
        self.width = width
        self.height = height
        self.items = items
        self.labels = labels
    }

    /// A sheet that is one badge, `scale` pixels a badge pixel (2 for @2x), its plates in
    /// the colours given (`plates`; none: the theme's).
    package init(badge: Badge, scale: Double, plates: BadgePlates = BadgePlates()) {
        self.init(
            width: (badge.width * scale).rounded(.up), height: (badge.height * scale).rounded(.up), items: [])
        self.badge = badge
        self.badgePlates = plates
        self.scale = scale
    }

    init(single scene: TallyScene, viewport: Viewport) {
        self.init(
            width: viewport.width, height: viewport.height,
            items: [Item(scene: scene, viewport: viewport, origin: Point(0, 0))])
    }
}

/// A Cairo status other than success, in Cairo's own words, or a machine without libcairo.
package struct CairoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in Cairo's words, or the loader's and the package to install.
    package let description: String
    /// The library could not be loaded (`CairoLibrary`): nothing was drawn, and installing the
    /// package named in the description is the remedy.
    package let isLibraryMissing: Bool

    init(_ status: cairo_status_t, _ doing: String, _ cairo: CairoLibrary) {
        let words = cairo.statusToString(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        self.init("cairo could not \(doing): \(words)")
    }

    init(_ message: String) {
        description = message
        isLibraryMissing = false
    }

    private init(missing reason: String) {
        description = "\(reason); install \(CairoLibrary.packageName)"
        isLibraryMissing = true
    }

    /// libcairo could not be loaded: the loader's reason ("libcairo.so.2: cannot open shared
    /// object file: …"), with the package to install.
    static func libraryMissing(_ reason: String) -> CairoError { CairoError(missing: reason) }
}

/// PNG and PDF through Cairo. It draws the scene it is given, mapped by the viewport, and adds
/// no geometry; every Cairo status is checked and every surface and context released.
package enum CairoRenderer {
    /// A PNG of `viewport`'s size, 8 bits a channel, indexed where it has at most 256 colours
    /// and RGBA otherwise (SPEC §5), with Title and Description text chunks.
    package static func png(_ scene: TallyScene, viewport: Viewport, options: CairoOptions) throws(CairoError)
        -> [UInt8]
    {
        try png(CairoSheet(single: scene, viewport: viewport), options: options)
    }

    /// One vector page of `viewport`'s size (a pixel is a point), titled in its metadata.
    package static func pdf(_ scene: TallyScene, viewport: Viewport, options: CairoOptions) throws(CairoError)
        -> [UInt8]
    {
        try pdf(CairoSheet(single: scene, viewport: viewport), options: options)
    }

    /// The pixels Cairo draws for `png(_:viewport:options:)`, before they are encoded: what a
    /// test compares a decoded PNG with.
    package static func drawnPixels(_ scene: TallyScene, viewport: Viewport, options: CairoOptions) throws(CairoError)
        -> PNGImage
    {
        try raster(CairoSheet(single: scene, viewport: viewport), options: options) {
            (width, height, stride, line) throws(CairoError) in
            var pixels: [UInt32] = []
            pixels.reserveCapacity(width * height)
            for row in 0..<height {
                pixels.append(contentsOf: UnsafeBufferPointer(start: line + row * stride, count: width))
            }
            return PNGImage(width: width, height: height, pixels: pixels)
        }
    }

    /// A sheet of tallies and labels as a PNG.
    package static func png(_ sheet: CairoSheet, options: CairoOptions) throws(CairoError) -> [UInt8] {
        try raster(sheet, options: options) { (width, height, stride, pixels) throws(CairoError) in
            try PNGEncoder.encode(
                width: width, height: height, stride: stride, pixels: pixels,
                text: [("Title", options.title), ("Description", options.description)])
        }
    }

    /// Draws a sheet on an image surface and hands its premultiplied ARGB pixels (width, height,
    /// stride in pixels, the first row) to `use` while the surface lives.
    private static func raster<Result>(
        _ sheet: CairoSheet, options: CairoOptions,
        _ use: (Int, Int, Int, UnsafePointer<UInt32>) throws(CairoError) -> Result
    ) throws(CairoError) -> Result {
        let cairo = try CairoLibrary.loaded()
        let surface = cairo.imageSurfaceCreate(CAIRO_FORMAT_ARGB32, Int32(sheet.width), Int32(sheet.height))
        defer { cairo.surfaceDestroy(surface) }
        try check(cairo.surfaceStatus(surface), "create a \(Int(sheet.width))×\(Int(sheet.height)) image", cairo)
        try draw(sheet, appearance: options.appearance, raster: true, on: surface, cairo)
        guard let data = cairo.imageSurfaceGetData(surface) else { throw CairoError("cairo gave no image data") }
        let stride = Int(cairo.imageSurfaceGetStride(surface)) / 4
        return try use(
            Int(sheet.width), Int(sheet.height), stride, UnsafeRawPointer(data).assumingMemoryBound(to: UInt32.self))
    }

    /// A sheet of tallies and labels as one PDF page.
    package static func pdf(_ sheet: CairoSheet, options: CairoOptions) throws(CairoError) -> [UInt8] {
        let cairo = try CairoLibrary.loaded()
        let sink = ByteSink()
        let surface = cairo.pdfSurfaceCreateForStream(
            ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(),
            sheet.width, sheet.height)
        // Cairo may still write into `sink` when the surface is destroyed (on an early throw, it
        // finishes the page then): `sink` lives until after that.
        defer { withExtendedLifetime(sink) { cairo.surfaceDestroy(surface) } }
        try check(cairo.surfaceStatus(surface), "create a PDF page", cairo)
        let date = PDFDate.iso8601(options.documentDate)
        cairo.pdfSurfaceSetMetadata(surface, CAIRO_PDF_METADATA_TITLE, options.title)
        cairo.pdfSurfaceSetMetadata(surface, CAIRO_PDF_METADATA_SUBJECT, options.description)
        cairo.pdfSurfaceSetMetadata(surface, CAIRO_PDF_METADATA_CREATOR, "tally")
        cairo.pdfSurfaceSetMetadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo.pdfSurfaceSetMetadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
        try draw(sheet, appearance: options.appearance, on: surface, cairo)
        cairo.surfaceFinish(surface)
        try check(cairo.surfaceStatus(surface), "write the PDF", cairo)
        return sink.bytes
    }

    /// The sheet on a surface: the background, each tally's marks in count order with round
    /// caps, then the labels.
    /// - Parameter raster: a PNG, whose transparent files stand on pages tally cannot see.
    static func draw(
        _ sheet: CairoSheet, appearance: Appearance, raster: Bool = false, on surface: OpaquePointer?,
        _ cairo: CairoLibrary
    ) throws(CairoError) {
        let context = cairo.create(surface)
        defer { cairo.destroy(context) }
        try check(cairo.status(context), "start drawing", cairo)
        // Backends without media queries draw `auto` in the light palette.
        let dark = appearance.theme == .dark
        // A transparent PNG of either theme is shown by many hosts on either scheme (the `<img>`
        // of a light/dark pair is all that npm, PyPI or a plain Markdown image show), so its marks
        // are the mid tones that read on white and on #0D1117 alike, opaque, as an SVG on an
        // unknown page draws them (SPEC §2, "Readable on light and dark pages by default").
        let unknownPage = raster && appearance.background == .none
        let palette =
            unknownPage
            ? Appearance(theme: .auto, overrides: appearance.overrides, background: .none).markPalette(dark: dark)
            : appearance.palette(dark: dark)
        if let background = appearance.backgroundColor(dark: dark), !background.isClear {
            setColor(context, background, cairo)
            cairo.paint(context)
        }
        if let badge = sheet.badge {
            drawBadge(
                badge, scale: sheet.scale, plates: sheet.badgePlates, appearance: appearance, context: context, cairo)
        }
        cairo.setLineCap(context, CAIRO_LINE_CAP_ROUND)
        cairo.setLineJoin(context, CAIRO_LINE_JOIN_ROUND)
        for item in sheet.items {
            cairo.save(context)
            cairo.translate(context, item.origin.x, item.origin.y)
            cairo.scale(context, item.viewport.pixelsPerUnit, item.viewport.pixelsPerUnit)
            cairo.translate(context, -item.viewport.visible.minX, -item.viewport.visible.minY)
            drawMarks(item.scene.marks, palette: palette, opaque: unknownPage, context: context, cairo)
            cairo.restore(context)
        }
        drawMarks(sheet.labels, palette: palette, context: context, cairo)
        try check(cairo.status(context), "draw the marks", cairo)
        cairo.surfaceFlush(surface)
    }

    /// A badge: its plates and text filled (nonzero), then its strip's marks with butt caps and
    /// mitred joins, as the SVG draws them, in the colours of `plates` where given.
    private static func drawBadge(
        _ badge: Badge, scale: Double, plates: BadgePlates, appearance: Appearance, context: OpaquePointer?,
        _ cairo: CairoLibrary
    ) {
        let dark = appearance.theme == .dark
        cairo.save(context)
        cairo.scale(context, scale, scale)
        for shape in badge.shapes {
            setColor(context, appearance.badgeColor(shape.role, dark: dark, plates: plates), cairo)
            for contour in shape.placedContours {
                guard let first = contour.first else { continue }
                cairo.moveTo(context, first.start.x, first.start.y)
                for segment in contour { appendSegment(context, segment, cairo) }
                cairo.closePath(context)
            }
            cairo.fill(context)
        }
        cairo.setLineCap(context, CAIRO_LINE_CAP_BUTT)
        cairo.setLineJoin(context, CAIRO_LINE_JOIN_MITER)
        drawMarks(
            appearance.badgeMarks(badge.marks, plates: plates),
            palette: appearance.badgeMarkPalette(dark: dark, plates: plates), context: context, cairo)
        cairo.restore(context)
    }

    /// A segment from the current point: a line, or a quadratic as its cubic equivalent.
    private static func appendSegment(_ context: OpaquePointer?, _ segment: Segment, _ cairo: CairoLibrary) {
        guard let control = segment.control else {
            cairo.lineTo(context, segment.end.x, segment.end.y)
            return
        }
        let (start, end) = (segment.start, segment.end)
        cairo.curveTo(
            context,
            start.x + 2 / 3 * (control.x - start.x), start.y + 2 / 3 * (control.y - start.y),
            end.x + 2 / 3 * (control.x - end.x), end.y + 2 / 3 * (control.y - end.y),
            end.x, end.y)
    }

    /// - Parameter opaque: every mark but a wash's tint drawn opaque (on a page tally cannot see,
    /// a translucent mark mixes with it and falls under 3:1 on one scheme or the other).
    private static func drawMarks(
        _ marks: [Mark], palette: Palette, opaque: Bool = false, context: OpaquePointer?, _ cairo: CairoLibrary
    ) {
        for mark in marks {
            let color = palette[mark.color]
            if color.isClear { continue }
            setColor(context, color, opacity: opaque && mark.kind != .progress ? 1 : mark.opacity, cairo)
            cairo.setLineWidth(context, mark.width)
            var current = Point(0, 0)
            mark.forEachPathElement { element in
                switch element {
                case .move(let point):
                    cairo.moveTo(context, point.x, point.y)
                    current = point
                case .line(let point):
                    cairo.lineTo(context, point.x, point.y)
                    current = point
                case .quadratic(let control, let end):
                    // The same curve as cubic controls, two thirds of the way to the quadratic one.
                    cairo.curveTo(
                        context,
                        current.x + 2 / 3 * (control.x - current.x), current.y + 2 / 3 * (control.y - current.y),
                        end.x + 2 / 3 * (control.x - end.x), end.y + 2 / 3 * (control.y - end.y),
                        end.x, end.y)
                    current = end
                case .close:
                    cairo.closePath(context)
                }
            }
            // A progress mark is filled (nonzero winding: overlaps are painted once), every other
            // stroked; a dotted outline in dashes one pen long, two pens apart, square ends.
            if mark.kind.isFilled {
                cairo.fill(context)
            } else if mark.kind.isDashed {
                // The path is not part of the saved state: only the caps and the dashes are.
                cairo.save(context)
                cairo.setLineCap(context, CAIRO_LINE_CAP_BUTT)
                let dashes = [mark.width, 2 * mark.width]
                // Each side of the outline starts half a pen before its corner, with a dash.
                dashes.withUnsafeBufferPointer { cairo.setDash(context, $0.baseAddress, 2, 0) }
                cairo.stroke(context)
                cairo.restore(context)
            } else {
                cairo.stroke(context)
            }
        }
    }

    private static func setColor(_ context: OpaquePointer?, _ color: RGBA, opacity: Double = 1, _ cairo: CairoLibrary) {
        let c = color.unitComponents
        cairo.setSourceRGBA(context, c.red, c.green, c.blue, c.alpha * opacity)
    }

    private static func check(_ status: cairo_status_t, _ doing: String, _ cairo: CairoLibrary) throws(CairoError) {
        if status != CAIRO_STATUS_SUCCESS { throw CairoError(status, doing, cairo) }
    }
}

/// Collects what Cairo writes through its stream callbacks.
final class ByteSink {
    var bytes: [UInt8] = []

    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}

/// Dates for PDF metadata, in UTC through `gmtime_r` (`utcCalendar`), so no time zone or locale
/// can change them.
enum PDFDate {
    /// `YYYY-MM-DDThh:mm:ssZ` for seconds since 1970-01-01 UTC, as Cairo's metadata expects.
    static func iso8601(_ seconds: Int64) -> String {
        let clamped = min(max(seconds, 0), 253_402_300_799)  // 1970 … 9999
        let date = utcCalendar(clamped)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(date.year)-\(two(date.month))-\(two(date.day))T\(two(date.hour)):\(two(date.minute)):\(two(date.second))Z"
    }
}

/// Text for metadata (PDF title and subject, PNG text chunks): the characters Cairo refuses in a
/// PDF (Unicode noncharacters such as U+FFFE) and control characters (C0 but tab and newline,
/// DEL and C1, which PNG's text chunks forbid) become U+FFFD, as the SVG's XML text does.
enum MetadataText {
    static func cleaned(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let control = (value < 0x20 && value != 0x09 && value != 0x0A) || (0x7F...0x9F).contains(value)
            let noncharacter = (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
            out.append(control || noncharacter ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }
}
#endif
