import TallyEncoding
import TallyGeometry
import TallyStyle

/// Which marks of an SVG draw in: a value, so it can never disagree with the scene's length.
package enum AnimatedMarks: Hashable, Sendable {
    /// A still image.
    case none
    /// Every mark, in count order.
    case all
    /// The marks at these positions in the scene's `marks`; positions past the end are ignored.
    case only(Set<Int>)

    /// One flag per mark of a scene with `count` marks.
    func flags(count: Int) -> [Bool]? {
        switch self {
        case .none: nil
        case .all: Array(repeating: true, count: count)
        case .only(let positions): (0..<count).map(positions.contains)
        }
    }
}

/// What an SVG carries besides the scene.
package struct SVGOptions: Hashable, Sendable {
    /// The theme, colour overrides and background.
    package var appearance: Appearance
    /// Replaces the title ("137 tally marks"); the description stays.
    package var label: String?
    /// Which marks draw in (SPEC §4): none, all, or the marks at some positions in the scene
    /// (the "+1" moment: those new since an earlier count).
    package var animated: AnimatedMarks
    /// The id of the root element, the prefix of the other ids and the scope of the style rules
    /// (letters, digits and `-` only); nil, the default, for `tally-` and a digest of the image
    /// (`SVGIDs`), unique to it, so many tallies can share one HTML page (SPEC §2, "Inline-safe SVG").
    package var id: String?
    /// Where the image sits, in pixels, when it is nested in a larger SVG (a gallery sheet).
    package var position: (x: Double, y: Double)?

    /// Options with a still image, the default look and an id from the image's digest.
    package init(
        appearance: Appearance = Appearance(), label: String? = nil, animated: AnimatedMarks = .none,
        id: String? = nil,
        position: (x: Double, y: Double)? = nil
    ) {
        self.appearance = appearance
        self.label = label
        self.animated = animated
        self.id = id
        self.position = position
    }

    /// Options are equal when every field is.
    package static func == (lhs: SVGOptions, rhs: SVGOptions) -> Bool {
        lhs.appearance == rhs.appearance && lhs.label == rhs.label && lhs.animated == rhs.animated && lhs.id == rhs.id
            && lhs.position?.x == rhs.position?.x && lhs.position?.y == rhs.position?.y
    }

    /// Hashes the fields equality compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(appearance)
        hasher.combine(label)
        hasher.combine(id)
    }
}

/// SPEC §5's SVG, in pure Swift: it draws the scene it is given and adds no geometry.
///
/// Compact by construction: a `<path>` holds a mark, or a run of opaque marks of one class, whose
/// colour and pen come from a class rule shared by every mark of the same kind (and unit, where
/// a scene has several), so no style is repeated per element.
///
/// Bounded numbers (SPEC §5): the user units of the SVG are layout units divided by a power of
/// ten (`unitDivisor`) chosen so that the `viewBox` and every coordinate stay below 10⁶ in
/// magnitude for every count; browsers, whose graphics engines lose precision on huge numbers,
/// then draw Int64.max as well as 5.
package enum SVGRenderer {
    /// The SVG document of a scene drawn into a viewport.
    ///
    /// ```swift
    /// let (scene, viewport, _) = try Renderer.layout(137, RenderSettings())
    /// let svg = SVGRenderer.render(scene, viewport: viewport)
    /// ```
    package static func render(_ scene: TallyScene, viewport: Viewport, options: SVGOptions = SVGOptions()) -> [UInt8] {
        var ids = SVGIDs(explicit: options.id, prefix: "tally-")
        var out = TextBuffer(capacity: 256 + scene.marks.count * 48)
        write(scene, viewport: viewport, options: options, ids: &ids, to: &out)
        return ids.finish(out)
    }

    /// Writes the SVG of a scene into a larger document (a gallery sheet, an HTML page), its ids
    /// from `ids` rather than `options.id`; the document's `ids.finish` fills in their digest.
    package static func write(
        _ scene: TallyScene, viewport: Viewport, options: SVGOptions, ids: inout SVGIDs, to out: inout TextBuffer
    ) {
        let divisor = unitDivisor(canvas: scene.canvas, visible: viewport.visible)
        let visible = Rect(
            minX: viewport.visible.minX / divisor, minY: viewport.visible.minY / divisor,
            width: viewport.visible.width / divisor, height: viewport.visible.height / divisor)
        let digits = precision(for: visible, pixels: max(viewport.width, viewport.height))
        // Pens and dashes one decimal finer, up to three: a dash's length repeats along a side,
        // so its rounding adds up (a row's dotted outline is 55 dashes long), where a
        // coordinate's does not.
        let penDigits = max(digits, min(digits + 1, 3))

        out.append(literal: "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"")
        ids.append(to: &out)
        out.append(literal: "\" ")
        if let position = options.position {
            out.append(literal: "x=\"")
            out.append(position.x, digits: 2, leadingZero: false)
            out.append(literal: "\" y=\"")
            out.append(position.y, digits: 2, leadingZero: false)
            out.append(literal: "\" ")
        }
        out.append(literal: "width=\"")
        out.append(viewport.width, digits: 0)
        out.append(literal: "\" height=\"")
        out.append(viewport.height, digits: 0)
        out.append(literal: "\" viewBox=\"")
        appendNumbers(&out, [visible.minX, visible.minY, visible.width, visible.height], digits: digits)
        out.append(literal: "\" role=\"img\" aria-labelledby=\"")
        ids.append(to: &out, suffix: "-title")
        out.append(byte: UInt8(ascii: " "))
        ids.append(to: &out, suffix: "-desc")
        out.append(literal: "\" data-count=\"")
        out.append(integer: scene.count.value)
        out.append(literal: "\">\n<title id=\"")
        ids.append(to: &out, suffix: "-title")
        out.append(literal: "\">")
        // The user's label is escaped, and so is a goal's title ("<1%"); tally's other words
        // (digits, letters, `,` and `-`, `Words`) are text as they stand, written as bytes.
        if options.label != nil || scene.goal != nil {
            out.append(XMLText.escaped(options.label ?? Words.title(for: scene.count, goal: scene.goal)))
        } else {
            out.append(bytes: Words.titleBytes(for: scene.count))
        }
        out.append(literal: "</title>\n<desc id=\"")
        ids.append(to: &out, suffix: "-desc")
        out.append(literal: "\">")
        out.append(bytes: Words.descriptionBytes(for: scene.count))
        out.append(literal: "</desc>\n")

        let classes = MarkClasses(scene.marks)
        let varyingWidth = classes.hasVaryingWidths
        let timings = options.animated.flags(count: scene.marks.count).map {
            Motion.timings(for: scene.marks, animated: $0)
        }
        out.append(literal: "<style>")
        appendStyle(
            &out, ids: &ids, classes: classes, appearance: options.appearance, digits: penDigits, divisor: divisor,
            animated: timings?.contains { $0 != nil } ?? false)
        out.append(literal: "</style>\n")

        if options.appearance.background != .none {
            out.append(literal: "<rect class=\"bg\" x=\"")
            out.append(visible.minX, digits: digits, leadingZero: false)
            out.append(literal: "\" y=\"")
            out.append(visible.minY, digits: digits, leadingZero: false)
            out.append(literal: "\" width=\"")
            out.append(visible.width, digits: digits, leadingZero: false)
            out.append(literal: "\" height=\"")
            out.append(visible.height, digits: digits, leadingZero: false)
            out.append(literal: "\"/>\n")
        }

        // Marks of one class in a row share one `<path>`, one subpath each (SPEC §5): a row's ten
        // boxes are one element, not ten. Only where a path carries nothing of its own (a pen, an
        // opacity, a timing) and the marks are opaque, since translucent subpaths of one path
        // would be painted once where they overlap and separate paths twice; fills stay apart
        // too (a wash's tint is translucent, and its edge seldom follows another).
        let opaqueMarks = options.appearance.isOnUnknownPage
        let joinable = timings == nil && !varyingWidth && !classes.hasVaryingOpacities
        var open: Int?
        var pen = RelativePen()
        for (index, mark) in scene.marks.enumerated() {
            let joins =
                joinable && !mark.kind.isFilled && (mark.opacity == 1 || (opaqueMarks && mark.kind != .progress))
            let rule = classes.index(of: mark)
            if joins, open != nil, open == rule {
                appendRelativePath(&out, mark, digits: digits, divisor: divisor, pen: &pen)
                continue
            }
            if open != nil {
                out.append(literal: "\"/>\n")
                open = nil
            }
            out.append(literal: "<path class=\"")
            classes.appendName(of: mark, to: &out)
            // Flags beyond the marks, or missing for some, mean "still": never a trap.
            let timing = timings.flatMap { index < $0.count ? $0[index] : nil }
            if timing != nil { out.append(literal: " a") }
            out.append(literal: "\"")
            if varyingWidth && !mark.kind.isFilled {
                out.append(literal: " stroke-width=\"")
                out.append(mark.width / divisor, digits: penDigits, leadingZero: false)
                out.append(literal: "\"")
                if mark.kind.isDashed {
                    out.append(literal: " stroke-dasharray=\"")
                    appendDashes(&out, width: mark.width / divisor, digits: penDigits)
                    out.append(literal: "\"")
                }
            }
            if classes.hasVaryingOpacities {
                out.append(mark.kind.isFilled ? " fill-opacity=\"" : " stroke-opacity=\"")
                out.append(mark.opacity, digits: 3, leadingZero: false)
                out.append(literal: "\"")
            }
            if let timing {
                out.append(literal: " pathLength=\"1\" style=\"animation-delay:")
                out.append(timing.delay, digits: 3, leadingZero: false)
                out.append(literal: "s")
                if timing.duration != Motion.duration(of: .stroke) {
                    out.append(literal: ";animation-duration:")
                    out.append(timing.duration, digits: 3, leadingZero: false)
                    out.append(literal: "s")
                }
                out.append(literal: "\"")
            }
            out.append(literal: " d=\"")
            pen = RelativePen()
            appendRelativePath(&out, mark, digits: digits, divisor: divisor, pen: &pen)
            if joins, let rule {
                open = rule
            } else {
                out.append(literal: "\"/>\n")
            }
        }
        if open != nil { out.append(literal: "\"/>\n") }
        out.append(literal: "</svg>\n")
    }

    /// The power of ten that layout units are divided by in the SVG: 1 while the frame and the
    /// visible box stay under 10⁵, else large enough to bring them there (10⁷ for Int64.max's
    /// frame of about 1.7 × 10¹¹), leaving room below SPEC's 10⁶ for margins and ink bows.
    static func unitDivisor(canvas: Canvas, visible: Rect) -> Double {
        let extent = max(
            canvas.width, canvas.height, abs(visible.minX), abs(visible.minY), abs(visible.maxX), abs(visible.maxY))
        var divisor = 1.0
        while extent / divisor >= 1e5 { divisor *= 10 }
        return divisor
    }

    /// Decimals enough for a fraction of a pixel however far the image is zoomed in a page (the
    /// last digit at most a ten-thousandth of the visible side: a twentieth of a pixel with the
    /// image 1,000 px tall), and at its declared size a fiftieth of a pixel, where it is drawn
    /// as the PNG is (SPEC §2, "The SVG at its declared size"); no more: every further digit is
    /// a byte a number.
    static func precision(for visible: Rect, pixels: Double) -> Int {
        let side = max(visible.width, visible.height)
        var digits = 3
        var threshold = 100.0
        while digits > 0 && side >= threshold {
            digits -= 1
            threshold *= 10
        }
        let pixelsPerUnit = side > 0 && pixels.isFinite ? pixels / side : 0
        var step = 1.0
        for _ in 0..<digits { step /= 10 }
        while digits < 3 && step * pixelsPerUnit > 0.02 {
            digits += 1
            step /= 10
        }
        return digits
    }

    static func sanitizedID(_ id: String) -> String {
        let kept = id.unicodeScalars.filter {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-"
        }
        let text = String(String.UnicodeScalarView(kept))
        return text.isEmpty || !(text.unicodeScalars.first!.properties.isAlphabetic) ? "tally" + text : text
    }

    private static func appendNumbers(_ out: inout TextBuffer, _ numbers: [Double], digits: Int, divisor: Double = 1) {
        for (index, number) in numbers.enumerated() {
            if index > 0 { out.append(byte: UInt8(ascii: " ")) }
            out.append(number / divisor, digits: digits, leadingZero: false)
        }
    }

    /// A mark's path data (`d`), in its own units, for an SVG that places marks itself (a
    /// gallery's labels).
    package static func appendPathData(_ out: inout TextBuffer, _ mark: Mark, digits: Int) {
        appendPath(&out, mark, digits: digits, divisor: 1)
    }

    /// Path data for the core's path in absolute coordinates: axis-parallel lines use `H` and
    /// `V`, bows `Q`.
    private static func appendPath(_ out: inout TextBuffer, _ mark: Mark, digits: Int, divisor: Double) {
        var current = Point(0, 0)
        mark.forEachPathElement { element in
            switch element {
            case .move(let point):
                out.append(byte: UInt8(ascii: "M"))
                appendPoint(&out, point, digits: digits, divisor: divisor)
                current = point
            case .line(let point) where point.y == current.y:
                out.append(byte: UInt8(ascii: "H"))
                out.append(point.x / divisor, digits: digits, leadingZero: false)
                current = point
            case .line(let point) where point.x == current.x:
                out.append(byte: UInt8(ascii: "V"))
                out.append(point.y / divisor, digits: digits, leadingZero: false)
                current = point
            case .line(let point):
                out.append(byte: UInt8(ascii: "L"))
                appendPoint(&out, point, digits: digits, divisor: divisor)
                current = point
            case .quadratic(let control, let end):
                out.append(byte: UInt8(ascii: "Q"))
                appendPoint(&out, control, digits: digits, divisor: divisor)
                out.append(byte: UInt8(ascii: " "))
                appendPoint(&out, end, digits: digits, divisor: divisor)
                current = end
            case .close:
                out.append(byte: UInt8(ascii: "Z"))
            }
        }
    }

    /// Where the pen stands while a path is written in relative steps, in whole units of the
    /// last decimal: the current point and its subpath's start. A path starts at (0, 0).
    struct RelativePen {
        var x: Int64 = 0
        var y: Int64 = 0
        var startX: Int64 = 0
        var startY: Int64 = 0
    }

    /// A mark's path in relative steps (`m`, `h`, `v`, `l`, `q`, `z`) from where `pen` stands:
    /// the boxes of a row, a wash's edge and the dots of a cell are each a short hop from the last,
    /// so a path is written as compact as an optimiser would write it (SPEC §5). Each step is the
    /// difference of two coordinates already rounded to `digits` decimals, so the rounding never
    /// adds up along the path: every corner lands where the absolute form puts it. The steps are
    /// whole numbers of the last decimal's units, formatted as they are (no Double between).
    private static func appendRelativePath(
        _ out: inout TextBuffer, _ mark: Mark, digits: Int, divisor: Double, pen: inout RelativePen
    ) {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        // A coordinate as a whole number of the last decimal's units, rounded as `append` rounds
        // (half away from zero); SPEC §5 keeps coordinates under 10⁶, far inside Int64.
        func units(_ value: Double) -> Int64 {
            let magnitude = abs(value / divisor * scale)
            guard magnitude < 9.0e15 else { return 0 }
            let whole = Int64(magnitude + 0.5)
            return value < 0 ? -whole : whole
        }
        func step(_ delta: Int64) { out.append(units: delta, digits: digits, leadingZero: false) }
        var (x, y) = (pen.x, pen.y)
        var start = (x: pen.startX, y: pen.startY)
        mark.forEachPathElement { element in
            switch element {
            case .move(let point):
                let (toX, toY) = (units(point.x), units(point.y))
                out.append(command: UInt8(ascii: "m"), units: toX &- x, toY &- y, digits: digits)
                (x, y) = (toX, toY)
                start = (x, y)
            case .quadratic(let control, let end):
                let (toX, toY) = (units(end.x), units(end.y))
                out.append(byte: UInt8(ascii: "q"))
                step(units(control.x) &- x)
                out.append(byte: UInt8(ascii: " "))
                step(units(control.y) &- y)
                out.append(byte: UInt8(ascii: " "))
                step(toX &- x)
                out.append(byte: UInt8(ascii: " "))
                step(toY &- y)
                (x, y) = (toX, toY)
            case .line(let point):
                let (toX, toY) = (units(point.x), units(point.y))
                if toY == y {
                    out.append(command: UInt8(ascii: "h"), units: toX &- x, digits: digits)
                } else if toX == x {
                    out.append(command: UInt8(ascii: "v"), units: toY &- y, digits: digits)
                } else {
                    out.append(command: UInt8(ascii: "l"), units: toX &- x, toY &- y, digits: digits)
                }
                (x, y) = (toX, toY)
            case .close:
                out.append(byte: UInt8(ascii: "z"))
                (x, y) = start
            }
        }
        pen = RelativePen(x: x, y: y, startX: start.x, startY: start.y)
    }

    /// `x y`, without building an array for two numbers.
    private static func appendPoint(_ out: inout TextBuffer, _ point: Point, digits: Int, divisor: Double) {
        out.append(point.x / divisor, digits: digits, leadingZero: false)
        out.append(byte: UInt8(ascii: " "))
        out.append(point.y / divisor, digits: digits, leadingZero: false)
    }

    /// A dotted outline's dash array: one pen on, two off.
    private static func appendDashes(_ out: inout TextBuffer, width: Double, digits: Int) {
        out.append(width, digits: digits, leadingZero: false)
        out.append(byte: UInt8(ascii: " "))
        out.append(2 * width, digits: digits, leadingZero: false)
    }

    /// `;stroke-opacity:.55` (or `fill-`) for a class whose marks are not opaque.
    private static func appendOpacity(_ out: inout TextBuffer, _ paint: StaticString, _ opacity: Double?) {
        guard let opacity, opacity != 1 else { return }
        out.append(byte: UInt8(ascii: ";"))
        out.append(literal: paint)
        out.append(literal: "-opacity:")
        out.append(opacity, digits: 3, leadingZero: false)
    }

    private static func appendStyle(
        _ out: inout TextBuffer, ids: inout SVGIDs, classes: MarkClasses, appearance: Appearance,
        digits: Int, divisor: Double, animated: Bool
    ) {
        // Every rule under the image's own id: its pens and colours never reach another image.
        ids.appendScope(to: &out)
        out.append(literal: "path{fill:none;stroke-linecap:round;stroke-linejoin:round}")
        // On a page tally cannot see (auto on transparent), a translucent mark mixes with that
        // page and falls under 3:1 on one of them whatever its colour (c1 at 55% is 2.3:1 on
        // white and 1.9:1 on #0D1117), so there every mark but the wash's tint is opaque: the
        // tint shows an area, its edge carries the contrast (SPEC §2, "Readable on light and
        // dark pages by default").
        let opaqueMarks = appearance.isOnUnknownPage
        func appendMarkOpacity(_ paint: StaticString, _ rule: MarkClasses.Rule) {
            guard opaqueMarks, rule.kind != .progress else { return appendOpacity(&out, paint, rule.opacity) }
            // Where the class's marks carry their own opacity attributes, the rule overrides them.
            if rule.opacity == nil {
                out.append(byte: UInt8(ascii: ";"))
                out.append(literal: paint)
                out.append(literal: "-opacity:1")
            }
        }
        // The first palette carries the pens; the dark override under `auto` only recolours.
        func appendColors(dark: Bool, withPens: Bool) {
            let palette = appearance.markPalette(dark: dark)
            for rule in classes.rules {
                ids.appendScope(to: &out)
                rule.appendSelector(to: &out)
                if rule.isFilled {
                    // A progress mark is a light fill, never a pen (SPEC §2).
                    out.append(literal: "{fill:")
                    out.append(palette[rule.color].css)
                    if withPens {
                        appendMarkOpacity("fill", rule)
                        out.append(literal: ";stroke:none")
                    }
                    out.append(literal: "}")
                    continue
                }
                out.append(literal: "{stroke:")
                out.append(palette[rule.color].css)
                if withPens, let width = rule.width {
                    out.append(literal: ";stroke-width:")
                    out.append(width / divisor, digits: digits, leadingZero: false)
                    if rule.kind.isDashed {
                        // A dotted outline: dashes one pen long, two pens apart, butt ends
                        // (MarkKind.dotted), so the dots stay evenly spaced at any zoom.
                        out.append(literal: ";stroke-dasharray:")
                        appendDashes(&out, width: width / divisor, digits: digits)
                    }
                }
                // Where pens vary mark by mark (the ink style), each dotted path carries its dashes.
                if withPens && rule.kind.isDashed { out.append(literal: ";stroke-linecap:butt") }
                if withPens { appendMarkOpacity("stroke", rule) }
                out.append(literal: "}")
            }
            if let background = appearance.backgroundColor(dark: dark) {
                ids.appendScope(to: &out)
                out.append(literal: ".bg{fill:")
                out.append(background.css)
                out.append(byte: UInt8(ascii: "}"))
            }
        }
        appendColors(dark: appearance.theme == .dark, withPens: true)
        if appearance.theme == .auto {
            out.append(literal: "@media (prefers-color-scheme:dark){")
            appendColors(dark: true, withPens: false)
            out.append(literal: "}")
        }
        if animated {
            // Reduced motion, or a renderer without CSS animation, shows the final marks at once.
            // The class's duration is a stroke's (`Motion`); marks of other kinds set their own.
            // Keyframes are global to a page, so their name is the image's too.
            out.append(literal: "@media (prefers-reduced-motion:no-preference){")
            ids.appendScope(to: &out)
            out.append(literal: ".a{stroke-dasharray:1 2;animation:")
            ids.append(to: &out, suffix: "-draw")
            out.append(byte: UInt8(ascii: " "))
            out.append(Motion.duration(of: .stroke), digits: 3, leadingZero: false)
            out.append(literal: "s ease-out both}@keyframes ")
            ids.append(to: &out, suffix: "-draw")
            out.append(literal: "{from{stroke-dashoffset:1.001}to{stroke-dashoffset:0}}}")
        }
    }
}

/// The class of each mark: its kind (SPEC §5), and `u<unit>` where marks of one kind have
/// several units in the scene that differ in colour, pen or opacity, each class with its colour
/// token and pen width.
///
/// Its rules are plain values and their names are written straight into the output: every SVG
/// builds this table, and the first array of each new element type costs about 11K
/// instructions at run time, more than the rest of the table.
struct MarkClasses {
    struct Rule {
        let kind: MarkKind
        let unit: UInt64
        let color: ColorToken
        /// nil where pens vary mark by mark (the ink style) and each path carries its own.
        var width: Double?
        /// The opacity of every mark of the class; nil where it varies and each path carries its own.
        var opacity: Double?
        /// Whether marks of this kind have several units in the scene that draw differently, so
        /// the class names the unit.
        var namesUnit = false
        /// Whether the rule serves every unit of its kind (they all draw alike).
        var anyUnit = false

        /// A filled kind (`progress`): a fill rule instead of a pen.
        var isFilled: Bool { kind.isFilled }

        /// The rule's selector: `.box`, or `.box.u100` where boxes of several units share the scene.
        func appendSelector(to out: inout TextBuffer) {
            out.append(byte: UInt8(ascii: "."))
            appendClasses(to: &out, joinedBy: UInt8(ascii: "."))
        }

        /// The class attribute of its marks: `box`, or `box u100`.
        func appendName(to out: inout TextBuffer) { appendClasses(to: &out, joinedBy: UInt8(ascii: " ")) }

        /// The kind, and `u<unit>` where it names the unit, joined by `separator`.
        private func appendClasses(to out: inout TextBuffer, joinedBy separator: UInt8) {
            out.append(literal: kind.className)
            if namesUnit {
                out.append(byte: separator)
                out.append(byte: UInt8(ascii: "u"))
                out.append(integer: unit)
            }
        }
    }

    /// In a fixed order (kinds as declared, units ascending), so the bytes are deterministic.
    private(set) var rules: [Rule] = []
    let hasVaryingWidths: Bool
    /// Whether marks of one class differ in opacity, so each path carries its own.
    let hasVaryingOpacities: Bool

    /// One pass over the marks with a short array of the (kind, unit) pairs seen (a scene has
    /// a handful), no hashing or string keys per mark: this runs for every SVG.
    init(_ marks: [Mark]) {
        // Room for a scene's classes (a dozen kinds and units at most in practice), grown once.
        rules.reserveCapacity(16)
        var varying = false
        var varyingOpacity = false
        // Marks of one class come in runs (a row's boxes), so the last class found is tried first.
        var last = 0
        for index in marks.indices {
            let (kind, unit) = (marks[index].kind, marks[index].unit)
            let found =
                last < rules.count && rules[last].kind == kind && rules[last].unit == unit
                ? last : rules.firstIndex { $0.kind == kind && $0.unit == unit }
            if let found {
                last = found
                if rules[found].width != marks[index].width { varying = true }
                if rules[found].opacity != marks[index].opacity { varyingOpacity = true }
            } else {
                last = rules.count
                rules.append(
                    Rule(
                        kind: kind, unit: unit, color: marks[index].color, width: marks[index].width,
                        opacity: marks[index].opacity))
            }
        }
        hasVaryingWidths = varying
        hasVaryingOpacities = varyingOpacity
        rules.sort { $0.kind.ordinal != $1.kind.ordinal ? $0.kind.ordinal < $1.kind.ordinal : $0.unit < $1.unit }
        if varying || varyingOpacity {
            for index in rules.indices {
                if varying { rules[index].width = nil }
                if varyingOpacity { rules[index].opacity = nil }
            }
        }
        // Sorted, the classes of one kind are neighbours. Where they all draw alike (one colour,
        // pen and opacity: crosses of 25 and of 100 in the default look), one rule serves them
        // and no mark's class names its unit; where they differ, each unit has its own rule.
        var kept: [Rule] = []
        var first = 0
        while first < rules.count {
            var end = first + 1
            var alike = true
            while end < rules.count && rules[end].kind == rules[first].kind {
                alike =
                    alike && rules[end].color == rules[first].color && rules[end].width == rules[first].width
                    && rules[end].opacity == rules[first].opacity
                end += 1
            }
            if alike {
                var rule = rules[first]
                rule.anyUnit = true
                kept.append(rule)
            } else {
                for index in first..<end {
                    var rule = rules[index]
                    rule.namesUnit = true
                    kept.append(rule)
                }
            }
            first = end
        }
        rules = kept
    }

    /// The position in `rules` of a mark's class; marks with one position share a class.
    func index(of mark: Mark) -> Int? {
        rules.firstIndex { $0.kind == mark.kind && ($0.anyUnit || $0.unit == mark.unit) }
    }

    /// Writes the class attribute of a mark.
    func appendName(of mark: Mark, to out: inout TextBuffer) {
        guard let index = index(of: mark) else { return out.append(literal: mark.kind.className) }
        rules[index].appendName(to: &out)
    }
}

extension MarkKind {
    /// The kind's name as a class (SPEC §5), its `rawValue` as a literal in the binary: written
    /// for every path and rule, where a `String` is retained, read and released each time.
    package var className: StaticString {
        switch self {
        case .stroke: "stroke"
        case .slash: "slash"
        case .cross: "cross"
        case .box: "box"
        case .line: "line"
        case .diagonal: "diagonal"
        case .progress: "progress"
        case .edge: "edge"
        case .caption: "caption"
        case .remaining: "remaining"
        case .dotted: "dotted"
        }
    }
}
