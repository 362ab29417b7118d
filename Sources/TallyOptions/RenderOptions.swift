import TallyBadge
import TallyEncoding
import TallyGeometry
import TallyPOSIX
import TallyRender
import TallyStyle

/// The render options of one request, read from text as given, checked, and turned into
/// `RenderSettings`: the one model behind `tally render`, `batch` and `gallery` (fed by
/// swift-argument-parser) and `tally serve`'s query parameters (fed by the URL).
///
/// Every value is read here, with the message naming the option and quoting the value as it
/// was given (SPEC §6), so the command line and the server refuse the same values with the same
/// words, and no front end depends on a parser's wording.
///
/// ```swift
/// let options = try RenderOptions([.size: "512", .theme: "dark"])
/// let settings = try options.settings(format: .png)
/// ```
package struct RenderOptions: Sendable {
    /// The values as given, for messages about the settings the renderer refuses.
    package let given: [RenderOption: String]
    /// What the options set, as read.
    package private(set) var draft = Draft()

    /// The settings being built from the options: the renderer's own settings, and the parts
    /// of the appearance whose defaults depend on the format, kept apart until it is known.
    package struct Draft: Sendable {
        /// Everything but the appearance; the format is set by `settings(format:)`.
        var settings = RenderSettings()
        var theme: Theme?
        var background: Background?
        var overrides: [ColorToken: RGBA] = [:]
        /// A badge's style and plate colours (SPEC §7).
        var badgeStyle = BadgeStyle.flat
        var plates = BadgePlates()
        /// The proportions the picture is drawn with (SPEC §2): the one place the options build
        /// the value the scene is drawn from. An option that sets a proportion reads its value
        /// into its field here, in its `read` (`RenderOption.declaration`), and nowhere else.
        var proportions = Proportions.standard
    }

    /// The goal given with `--of`, checked (with a `--frame` given beside it).
    package var goal: TallyCount? { draft.settings.goal }

    /// Reads and checks every value, in the order of `RenderOption.allCases`.
    ///
    /// - Parameter given: each option's value as given; a switch's is `true`, `false` or empty
    ///   (on), as in `?caption`, `?caption=false`.
    /// - Throws: `CommandFailure` (exit 64, HTTP 400) naming the first option whose value is
    ///   wrong, or two options that cannot be given together.
    package init(_ given: [RenderOption: String]) throws(CommandFailure) {
        self.given = given
        for option in RenderOption.allCases {
            guard let text = given[option] else { continue }
            try option.declaration.read(text, &draft)
        }
        if let goal, let frame = draft.settings.frame, frame != UnitLevel.frame(for: goal) {
            let own = UnitLevel.frame(for: goal)
            throw .usage(
                "--frame '\(Values.printable(given[.frame] ?? ""))' is not the frame of --of '\(goal.value)', a \(own.name) of \(Words.grouped(own.capacity)); give one of them, or that frame"
            )
        }
        let sides = RenderOption.sides.filter { given[$0] != nil }
        if sides.count > 1 {
            throw .usage(
                "give only one of --size, --width and --height; \(Values.list(sides.map(\.flag), conjunction: "and")) are given"
            )
        }
    }

    /// A length or factor above 0 (`--size`, `--scale`).
    static func positive(_ option: RenderOption, _ text: String) throws(CommandFailure) -> Double {
        try number(option, text, allowed: "a positive number", zero: false)
    }

    /// A decimal number, finite, above 0 (or from 0 with `zero`). A value too large for a
    /// `Double` is named as given, not as `inf`.
    static func number(_ option: RenderOption, _ text: String, allowed: String, zero: Bool) throws(CommandFailure)
        -> Double
    {
        let shown = "\(option.flag) '\(Values.printable(text))'"
        guard let value = Values.decimal(text) else { throw .usage("\(shown) is not a number; it must be \(allowed)") }
        if value < 0 || text.hasPrefix("-") && !(value == 0 && zero) {
            throw .usage("\(shown) is negative; it must be \(allowed)")
        }
        if value == 0 && !zero { throw .usage("\(shown) must be \(allowed)") }
        if value.isInfinite { throw .usage("\(shown) is too large; \(Values.imageLimits)") }
        return value
    }

    /// What a number in `range` may be, in the words of the messages and the help: "a number of
    /// layout units from 42.15 to 247". An option's help states its range with this, so the
    /// generated lists (SPEC §6, the reference, the server's query) carry the messages' figures.
    package static func allowed(_ range: ClosedRange<Double>, unit: String) -> String {
        "a number of \(unit) from \(DecimalText.fixed(range.lowerBound)) to \(DecimalText.fixed(range.upperBound))"
    }

    /// A decimal number in `range`, in `unit`s (a drawing parameter's, `Proportions`): the
    /// message names the option, the value as given and the range, as every option's does.
    package static func number(_ option: RenderOption, _ text: String, in range: ClosedRange<Double>, unit: String)
        throws(CommandFailure) -> Double
    {
        let allowed = Self.allowed(range, unit: unit)
        let shown = "\(option.flag) '\(Values.printable(text))'"
        guard let value = Values.decimal(text) else { throw .usage("\(shown) is not a number; it must be \(allowed)") }
        guard value.isFinite, range.contains(value) else {
            throw .usage("\(shown) is out of range; it must be \(allowed)")
        }
        return value
    }

    /// A goal: a count of at least 1.
    static func goal(_ text: String) throws(CommandFailure) -> TallyCount {
        let range = "a whole number from 1 to \(TallyCount.maximum)"
        let shown = "\(RenderOption.of.flag) '\(Values.printable(text))'"
        let goal: TallyCount
        do {
            goal = try TallyCount(parsing: text)
        } catch {
            throw .usage("\(shown) \(error.reason); it must be \(range)")
        }
        guard goal.value > 0 else { throw .usage("\(shown) is not a goal; it must be \(range)") }
        return goal
    }

    static func seed(_ text: String) throws(CommandFailure) -> UInt64 {
        let range = "a whole number from 0 to \(UInt64.max)"
        let shown = "\(RenderOption.seed.flag) '\(Values.printable(text))'"
        if text.hasPrefix("-") && text.dropFirst().allSatisfy(\.isASCII) && Values.decimal(text) != nil {
            throw .usage("\(shown) is negative; it must be \(range)")
        }
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw .usage("\(shown) is not a whole number; it must be \(range)")
        }
        guard let value = UInt64(text) else { throw .usage("\(shown) is too large; it must be \(range)") }
        return value
    }

    /// A switch's value: on for empty, `true`, `1`, `yes` or `on`; off for `false`, `0`, `no`
    /// or `off`.
    static func switchValue(_ option: RenderOption, _ text: String) throws(CommandFailure) -> Bool {
        switch text.lowercased() {
        case "", "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default:
            throw .usage(
                "\(option.flag) '\(Values.printable(text))' is not true or false; give true, false or no value")
        }
    }

    /// A badge's style (`--style`, SPEC §7), with the closest name where the text is near one.
    static func badgeStyle(_ text: String) throws(CommandFailure) -> BadgeStyle {
        if let style = BadgeStyle(rawValue: text) { return style }
        let names = BadgeStyle.allCases.map(\.rawValue)
        throw .usage(
            "\(RenderOption.badgeStyle.flag) '\(Values.printable(text))' is not a badge style; \(Values.suggestion(for: text, among: names))use \(Values.list(names))"
        )
    }

    /// The message for a plate's colour (`--color`, `--label-color`) that is not one, with the
    /// closest of shields.io's names where the text is near one.
    static func plateColorError(_ option: RenderOption, _ text: String, _ problem: ShieldsColors.Problem) -> String {
        let shown = "\(option.flag) '\(Values.printable(text))'"
        let words =
            "a shields.io colour name (\(Values.list(ShieldsColors.names))), hex with or without # (4c1, #4c1, ff8800) or a CSS colour name"
        switch problem {
        case .notOpaque:
            return "\(shown) is not opaque; a plate's colour is \(words)"
        case .notAColor:
            let guess = Values.suggestion(for: text.lowercased(), among: ShieldsColors.names)
            return "\(shown) is not a colour; \(guess)use \(words)"
        }
    }

    static func colorError(_ option: RenderOption, _ text: String, paper: Bool = false) -> String {
        "\(option.flag) '\(Values.printable(text))' is not a colour; use #RGB, #RRGGBB, #RRGGBBAA, a CSS colour name\(paper ? ", paper" : "") or none"
    }

    /// Whether a size was given (`--size`, `--width` or `--height`).
    package var sizeGiven: Bool { draft.settings.side != nil }

    /// The frame pinned with `--frame`, if any.
    package var pinnedFrame: UnitLevel? { draft.settings.frame }

    /// The settings for a format: what is not given is the format's default
    /// (`Appearance.default(for:)`, SPEC §3).
    ///
    /// - Throws: `CommandFailure` when `SOURCE_DATE_EPOCH`, which dates a PDF, is not a number
    ///   of seconds.
    package func settings(format: OutputFormat) throws(CommandFailure) -> RenderSettings {
        var settings = draft.settings
        settings.proportions = draft.proportions
        settings.appearance = Appearance.default(
            for: format, theme: draft.theme, overrides: draft.overrides, background: draft.background)
        settings.documentDate = try Self.documentDate()
        return settings
    }

    /// SPEC §5: PDF dates come from `SOURCE_DATE_EPOCH` when it is set, else a fixed date.
    package static func documentDate() throws(CommandFailure) -> Int64 {
        guard let text = environmentValue("SOURCE_DATE_EPOCH"), !text.isEmpty else { return 0 }
        guard let seconds = Int64(text), seconds >= 0, seconds <= 253_402_300_799 else {
            throw .usage(
                "SOURCE_DATE_EPOCH '\(Values.printable(text))' is not a number of seconds from 0 to 253402300799")
        }
        return seconds
    }

    /// The options of one file of a command that writes several (SPEC §6, §8): the options as
    /// given, with that file's scale and, for one of a light and dark pair, its theme. A file of
    /// a pair is transparent, as the auto SVG it stands for is, unless a background is given
    /// (SPEC §3): each is drawn for a page of its own scheme, where paper would show as a box.
    /// - Parameter options: the options the command takes; a badge takes no background.
    package static func variant(
        _ given: [RenderOption: String], theme: String?, scale: String?, among options: [RenderOption]
    ) -> [RenderOption: String] {
        var variant = given
        variant[.scale] = scale
        if let theme {
            variant[.theme] = theme
            if given[.background] == nil && options.contains(.background) { variant[.background] = "none" }
        }
        return variant
    }

    /// The one-line note for `--theme auto` on a format that cannot follow the viewer (SPEC §3),
    /// or nil.
    package func note(format: OutputFormat) -> String? {
        guard draft.theme == .auto, format == .png || format == .pdf else { return nil }
        return
            "tally: note: --theme auto draws the light palette in \(format.rawValue.uppercased()); only SVG follows the viewer's colour scheme\n"
    }

    /// The one-line message for settings the renderer refused, naming the options as given.
    package func failure(_ error: RenderError) -> CommandFailure {
        let sideOption = [RenderOption.width, .height].first { given[$0] != nil } ?? .size
        func shown(_ option: RenderOption) -> String { "\(option.flag) '\(Values.printable(given[option] ?? ""))'" }
        // What made the side: the size given, with the scale when both are.
        let cause: String
        switch (given[sideOption] != nil, given[.scale] != nil) {
        case (true, true): cause = "\(shown(sideOption)) with \(shown(.scale))"
        case (true, false): cause = shown(sideOption)
        case (false, true): cause = shown(.scale)
        case (false, false): cause = "the default size"
        }
        switch error {
        case .viewport(.notPositive(let what, _)):
            let option = what == "padding" ? RenderOption.padding : what == "scale" ? .scale : sideOption
            let allowed = what == "padding" ? "a number of pixels, 0 or more" : "a positive number"
            return .usage("\(shown(option)) must be \(allowed)")
        case .viewport(.sideTooSmall):
            return .usage("\(cause) gives a side under 1 px; it must give at least 1 px")
        case .viewport(.paddingTooLarge):
            return .usage("\(shown(.padding)) leaves no room for the tally; it must be less than half the size")
        case .viewport(.sideTooLarge(let value)):
            return .usage("\(cause) gives a side of \(Viewport.sideInWords(value)); \(Values.imageLimits)")
        case .viewport(.tooManyPixels(let value)):
            return .usage("\(cause) gives \(Values.pixels(value)) pixels; \(Values.imageLimits)")
        case .animationNeedsSVG(let format):
            let option = given[.animateFrom] != nil ? RenderOption.animateFrom : .animate
            return .usage("\(option.flag) is for SVG output; the format is \(format.rawValue)")
        case .countBeyondFrame(let count, let level):
            return Values.countBeyondFrame(count, level, given[.frame] ?? "")
        case .animationSinceBeyondCount(_, let count):
            return .usage(
                "\(shown(.animateFrom)) is larger than the count \(count.value); it must be from 0 to the count")
        case .formatUnavailable:
            return .usage(error.description)
        case .backend(let failure):
            return CommandFailure(Self.isOutOfMemory(failure) ? .outOfMemory : .io, error.description)
        case .libraryMissing:
            return CommandFailure(.unavailable, error.description)
        }
    }

}

extension RenderOptions {
    /// The settings of a badge in a format, after checking that only badge options were given
    /// (`RenderOption.badgeOptions`); an empty label is no label.
    /// - Throws: `CommandFailure` (64) naming an option a badge does not take, or
    ///   `SOURCE_DATE_EPOCH` out of range.
    package func badgeSettings(format: OutputFormat) throws(CommandFailure) -> BadgeSettings {
        if let other = RenderOption.allCases.first(where: {
            given[$0] != nil && !RenderOption.badgeOptions.contains($0)
        }) {
            throw .usage(
                "\(other.flag) is not a badge option; a badge takes \(Values.list(RenderOption.badgeOptions.map(\.flag), conjunction: "and"))"
            )
        }
        guard BadgeSettings.formats.contains(format) else {
            throw .usage("format '\(format.rawValue)' is not a badge format; use svg, png or pdf")
        }
        let defaults = Appearance.default(for: format)
        return BadgeSettings(
            format: format, label: draft.settings.label?.isEmpty == true ? nil : draft.settings.label, goal: goal,
            scale: draft.settings.scale,
            appearance: Appearance(theme: draft.theme ?? defaults.theme, overrides: draft.overrides, background: .none),
            style: draft.badgeStyle, plates: draft.plates, documentDate: try Self.documentDate())
    }

    /// The badge of a count with these settings, laid out.
    /// - Throws: `CommandFailure` (64) for a label the badge cannot write, quoting it.
    package func badge(_ count: TallyCount, _ settings: BadgeSettings) throws(CommandFailure) -> Badge {
        do {
            return try Badge(count: count, goal: settings.goal, label: settings.label, style: settings.style)
        } catch {
            throw labelFailure(error)
        }
    }

    /// Checks the label as `badge(_:_:)` does, with its messages, without laying the badge out:
    /// a server refuses a bad label before its cache, and draws the badge once, later.
    package func checkBadgeLabel(_ settings: BadgeSettings) throws(CommandFailure) {
        guard let label = settings.label else { return }
        do {
            try Badge.check(label)
        } catch {
            throw labelFailure(error)
        }
    }

    /// The command line's message for a label a badge cannot write.
    private func labelFailure(_ error: Badge.Problem) -> CommandFailure {
        let shown = "\(RenderOption.label.flag) '\(Values.printable(given[.label] ?? ""))'"
        switch error {
        case .labelTooLong(let characters):
            return .usage(
                "\(shown) is \(Words.grouped(UInt64(characters))) characters; a badge's label has at most \(BadgeProportions.maximumLabelCharacters)"
            )
        case .labelControlCharacter(let scalar):
            return .usage(
                "\(shown) has a control character (\(Self.codePoint(scalar))); a badge's label is printable text")
        case .labelFormatCharacter(let scalar):
            return .usage(
                "\(shown) has an invisible format character (\(Self.codePoint(scalar))), which a badge cannot show; a badge's label is visible text"
            )
        case .missingCharacter(let scalar):
            return .usage(
                "\(shown) has \(Self.quoted(scalar)) (\(Self.codePoint(scalar))), which the badge's font does not have; it has \(BadgeFont.coverage)"
            )
        }
    }

    /// A character quoted for a message: `'✓'`; a combining mark on U+25CC (`'◌́'`), as
    /// Unicode's charts show one, since alone it would be drawn over the quote sign before it.
    static func quoted(_ scalar: Unicode.Scalar) -> String {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: "'\u{25CC}\(Values.printable(String(scalar)))'"
        default: "'\(Values.printable(String(scalar)))'"
        }
    }

    /// Whether a backend failed for want of memory: Cairo's words for `CAIRO_STATUS_NO_MEMORY`
    /// end its reason ("cairo could not create an image: out of memory"), and `CairoLibrary`
    /// words a load that ran out of memory the same way. SPEC §6 gives it its own exit code.
    static func isOutOfMemory(_ failure: BackendFailure) -> Bool {
        failure.reason.hasSuffix(": out of memory")
    }

    /// `U+2713`.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
