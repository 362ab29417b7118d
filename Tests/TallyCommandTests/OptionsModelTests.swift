import Foundation
import TallyGeometry
import TallyOptions
import TallyRender
import TallyTestSupport
import Testing

/// The options model (SPEC §6): one table of options behind the command line and the server,
/// messages that quote the value as given, and a canonical form that ignores defaults.
@Suite struct OptionsModelTests {
    /// A drawing parameter's number in its range (`RenderOptions.number(_:_:in:unit:)`, for an
    /// option that sets a proportion): taken at both ends, refused past them, when not a number,
    /// and when infinite, each in one line naming the option, the value as given and the range
    /// (SPEC §6, "Bad input").
    @Test func aNumberInARangeIsCheckedAndNamed() throws {
        let range = 1.3...30.0
        for text in ["1.3", "30", "6", "17.25"] {
            let value = try RenderOptions.number(.padding, text, in: range, unit: "layout units")
            #expect(value == Double(text), "\(text)")
        }
        let allowed = "it must be a number of layout units from 1.3 to 30"
        for (text, problem) in [
            ("1.2", "is out of range"), ("30.001", "is out of range"), ("-5", "is out of range"),
            ("1e999", "is out of range"), ("six", "is not a number"), ("", "is not a number"),
            ("1\u{1B}", "is not a number"),
        ] {
            let message = "--padding '\(Values.printable(text))' \(problem); \(allowed)"
            #expect(throws: CommandFailure.usage(message)) {
                try RenderOptions.number(.padding, text, in: range, unit: "layout units")
            }
        }
    }

    /// Every option of the table is an option of `render`, `batch` and `gallery`, with the
    /// table's help in that command's words; nothing the command line offers for drawing is
    /// missing from the table. A gallery, which refuses motion and labels every tile in place of
    /// a caption, does not list those three.
    @Test(arguments: [
        ("render", RenderOption.Audience.render), ("batch", .batch), ("gallery", .gallery),
    ])
    func theCommandLineOffersTheTable(_ command: String, _ audience: RenderOption.Audience) throws {
        let help = try TallyProcess.run([command, "--help"]).text
        // Help wraps at 80 columns: compare words, not lines.
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let unlisted: Set<RenderOption> = command == "gallery" ? [.animate, .animateFrom, .caption, .inset] : []
        for option in RenderOption.all {
            let named = try Regex("--\(option.name)(?![a-z0-9-])")
            #expect(words.contains(named) == !unlisted.contains(option), "\(command) --help and --\(option.name)")
            guard let text = option.help(for: audience) else {
                #expect(unlisted.contains(option), "\(command) offers --\(option.name)")
                continue
            }
            let opening = text.split(separator: " ").prefix(4).joined(separator: " ")
            #expect(words.contains(opening), "\(command) --help says \(opening)")
        }
    }

    /// Every option declares samples (SPEC §6): at least two, each taken, and no two giving one
    /// setting. The cache key's and the ETags' tests vary every option of `all` and
    /// `badgeOptions` through them, pair by pair, which between them are every case: so each
    /// option is varied by construction, and one added cannot leave another unvaried.
    @Test func everyOptionHasSamplesThatDiffer() throws {
        #expect(Set(RenderOption.all + RenderOption.badgeOptions) == Set(RenderOption.allCases))
        for option in RenderOption.allCases {
            #expect(option.samples.count >= 2, "\(option.flag) has two samples at least")
            #expect(Set(option.samples).count == option.samples.count, "\(option.flag)'s samples are distinct")
            var rendered: [RenderSettings: String] = [:]
            var badges: [BadgeSettings: String] = [:]
            for sample in option.samples {
                let options = try RenderOptions([option: sample])
                if option.declaration.render {
                    let settings = try options.settings(format: .svg)
                    #expect(rendered[settings] == nil, "\(option.flag) \(sample) is \(rendered[settings] ?? "")")
                    rendered[settings] = sample
                }
                if option.declaration.badge {
                    let settings = try options.badgeSettings(format: .svg)
                    #expect(badges[settings] == nil, "badge \(option.flag) \(sample) is \(badges[settings] ?? "")")
                    badges[settings] = sample
                }
            }
        }
    }

    /// `tally badge` offers exactly the options the table says a badge takes.
    @Test func theBadgeOffersItsOptions() throws {
        let help = try TallyProcess.run(["badge", "--help"]).text
        for option in RenderOption.allCases {
            #expect(
                help.contains("--\(option.name) ") == RenderOption.badgeOptions.contains { $0.name == option.name },
                "badge --help and --\(option.name)")
        }
    }

    /// Values are named as given, not after conversion, and a refusal says what is wrong with the
    /// value (a number in place of a name is "not a theme", not "negative").
    @Test(arguments: [
        (["render", "5", "--scale", "1e308"], "--scale '1e308'", ["inf"]),
        (["render", "5", "--size", "-inf"], "--size '-inf'", ["missing"]),
        (["render", "5", "--size", "1e999"], "--size '1e999'", ["inf'"]),
        (["render", "5", "-f", "-5"], "--format '-5' is not a format", ["negative"]),
        (["render", "5", "--theme", "-5"], "--theme '-5' is not a theme", ["negative"]),
        (["render", "5", "--style", "-5"], "--style '-5' is not a style", ["negative"]),
        (["render", "5", "--size", "0x10"], "--size '0x10' is not a number", []),
        (["render", "5", "--seed", "-1"], "--seed '-1' is negative", []),
        (["render", "5", "--label", "-5", "--size", "-5"], "--size '-5' is negative", []),
        (["batch", "5", "--out-dir", "/nonexistent/x", "-f", "-5"], "--format '-5' is not a format", []),
    ])
    func valuesAreNamedAsGiven(_ arguments: [String], _ needle: String, _ absent: [String]) throws {
        let run = try TallyProcess.run(arguments)
        expectOneLineError(run, status: 64, mentioning: needle)
        for word in absent { #expect(!run.stderr.contains(word), "\(arguments): \(run.stderr)") }
    }

    /// A value of 100,000 digits is quoted as given, cut short, never as `inf`.
    @Test func aHugeNumberIsQuotedNotConverted() throws {
        let digits = "9" + String(repeating: "0", count: 99_999)
        let run = try TallyProcess.run(["render", "5", "--size", digits])
        expectOneLineError(run, status: 64, mentioning: "--size '9000")
        #expect(run.stderr.contains("…"))
        #expect(!run.stderr.contains("inf"))
        #expect(run.stderr.utf8.count < 600)
    }

    /// A newline or other control character, and invisible format characters (bidi controls,
    /// the BOM), in any option's value: one line that names the option, every such character
    /// escaped.
    @Test func controlAndFormatCharactersAreEscapedAndTheOptionNamed() throws {
        let hostile = ["12\n34", "a\rb", "x\u{1B}[31m", "\u{202E}gpj.svg", "\u{FEFF}5", "a\u{200B}b", "a\u{2028}b"]
        let options = RenderOption.all.filter { !$0.isSwitch && $0 != .label }
        for option in options {
            for value in hostile {
                let run = try TallyProcess.run(["render", "5", "-f", "svg", "--\(option.name)", value])
                expectOneLineError(run, status: 64, mentioning: "--\(option.name) '")
                for scalar in run.stderr.dropLast().unicodeScalars {
                    let category = scalar.properties.generalCategory
                    #expect(
                        category != .control && category != .format && category != .lineSeparator,
                        "--\(option.name): U+\(String(scalar.value, radix: 16)) is shown unescaped")
                }
            }
        }
        let format = try TallyProcess.run(["render", "5", "-f", "s\nvg"])
        expectOneLineError(format, status: 64, mentioning: "--format 's\\u{A}vg'")
    }

    /// The same values give the same settings and messages from the table and from the command
    /// line, whatever order the options come in.
    @Test func theFirstProblemIsTheSameInAnyOrder() throws {
        let values: [RenderOption: String] = [.size: "0", .theme: "purple", .seed: "x"]
        let message = try #require(refusal(values))
        #expect(message.hasPrefix("--size '0'"), "the table's order: size before theme and seed")
        let forward = try TallyProcess.run(["render", "5", "--size", "0", "--theme", "purple", "--seed", "x"])
        let backward = try TallyProcess.run(["render", "5", "--seed", "x", "--theme", "purple", "--size", "0"])
        #expect(forward.stderr == "tally: error: \(message)\n")
        #expect(backward.stderr == forward.stderr)
    }

    func refusal(_ values: [RenderOption: String]) -> String? {
        do {
            _ = try RenderOptions(values)
            return nil
        } catch {
            return error.message
        }
    }

    /// Options equal to their defaults draw the same bytes as no options (SPEC §6); the server's
    /// tags come from the bytes, so these share one ETag too.
    @Test(arguments: [
        (UInt64(137), OutputFormat.svg, [RenderOption.size: "256"]),
        (137, .svg, [.size: "256.0", .scale: "1"]),
        (137, .svg, [.theme: "auto", .background: "none"]),
        (137, .png, [.theme: "light", .background: "paper"]),
        (137, .svg, [.style: "clean", .seed: "42"]),
        (137, .svg, [.fit: "content", .detail: "auto"]),
        (137, .svg, [.caption: "false", .label: "137 tally marks"]),
        (12_345, .svg, [.caption: "true"]),
        (137, .json, [.caption: "false", .detail: "full"]),
        (137, .svg, [.animate: "false"]),
        (137, .svg, [.width: "256"]),
        (137, .svg, [.frame: "1000", .fit: "frame"]),
        (137, .png, [.theme: "auto"]),
        (137, .json, [.theme: "dark", .label: "x"]),
        (137, .svg, [.animate: "true", .animateFrom: "0"]),
    ])
    func defaultsDrawTheSameBytes(_ count: UInt64, _ format: OutputFormat, _ values: [RenderOption: String]) throws {
        let count = try #require(TallyCount(exactly: count))
        guard format != .png || cairoIsBuiltIn else { return }
        let plainValues: [RenderOption: String] =
            values[.animateFrom] != nil ? [.animate: "true"] : values[.frame] != nil ? [.frame: "1000"] : [:]
        let plainBytes = try Renderer.render(count, as: format, try RenderOptions(plainValues).settings(format: format))
        let givenBytes = try Renderer.render(count, as: format, try RenderOptions(values).settings(format: format))
        #expect(plainBytes == givenBytes, "\(values)")
    }
}
