import Foundation
import TallyTestSupport
import Testing

/// SPEC §6, `-f term`: a preview in braille cells, as wide as asked, coloured on a terminal.
@Suite struct TerminalPreviewTests {
    static let tmux = installedProgram("tmux")

    /// The lines of a preview, without colour escapes.
    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    /// Whether a scalar is a braille cell.
    static func isBraille(_ scalar: Unicode.Scalar) -> Bool { (0x2800...0x28FF).contains(scalar.value) }

    /// In a real terminal (a tmux pane), `tally render 137` with no -f and no -o shows the
    /// coloured preview, and `-o -` the SVG it names; through a pipe the same command writes the
    /// SVG of `-f svg`.
    @Test(.enabled(if: canRun(tmux), "needs tmux"))
    func aTerminalGetsThePreviewAPipeTheSVG() async throws {
        let tally = "'\(TallyProcess.executable.path)'"
        func pane(_ command: String, until marker: String) throws -> String {
            try Self.pane(command, until: marker, colorTerm: "truecolor")
        }
        let screen = try pane("\(tally) render 137", until: "⣿")
        #expect(screen.unicodeScalars.contains(where: Self.isBraille), "a braille preview: \(screen.prefix(300))")
        #expect(screen.contains("\u{1B}["), "with colour escapes")
        #expect(!screen.contains("<svg"), "not SVG text")
        let named = try pane("\(tally) render 5 -o -", until: "</svg>")
        #expect(named.contains("<svg xmlns"), "-o - on a terminal is SVG, as asked: \(named.prefix(300))")
        let shell = try #require(installedProgram("sh"))
        let piped = try runProgram(shell, ["-c", "'\(TallyProcess.executable.path)' render 137 | cat"])
        #expect(piped.stdout == (try TallyProcess.run(["render", "137", "-f", "svg"])).stdout)
    }

    /// A command in a new tmux pane (100 × 60, no COLORFGBG), once `marker` shows (at most 10 s):
    /// the pane with its escapes. One shell runs each session (a tmux server started by a command
    /// that has ended does not outlive it under Foundation's Process): start the pane, wait for its
    /// output, print the pane, stop the server.
    static func pane(_ command: String, until marker: String, colorTerm: String) throws -> String {
        let tmux = try #require(Self.tmux, "tmux is missing").path
        let shell = try #require(installedProgram("sh"))
        let socket = "tally-test-\(UUID().uuidString.prefix(8))"
        let script = """
            '\(tmux)' -u -L \(socket) -f /dev/null new-session -d -x 100 -y 60 -e COLORTERM=\(colorTerm) "\(command); sleep 60" >/dev/null 2>&1
            for i in $(seq 1 100); do
              '\(tmux)' -L \(socket) capture-pane -p 2>/dev/null | grep -q '\(marker)' && break
              sleep 0.1
            done
            '\(tmux)' -L \(socket) capture-pane -e -p
            '\(tmux)' -L \(socket) kill-server >/dev/null 2>&1
            """
        return try runProgram(
            shell, ["-c", script], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"], timeout: 30
        ).text
    }

    /// In tmux, without COLORFGBG (unset by most terminals): every colour the preview names is at
    /// least 3:1 on a #1E1E1E terminal and on a white one (ink is the terminal's own foreground);
    /// NO_COLOR and TERM=dumb give no colour; the caption is text; no blank rows around it.
    @Test(.enabled(if: canRun(tmux), "needs tmux"))
    func thePreviewReadsOnAnyTerminal() throws {
        let tally = "'\(TallyProcess.executable.path)'"
        let screen = try Self.pane(
            "unset COLORFGBG; \(tally) render 100000 --columns 60", until: "100,000", colorTerm: "truecolor")
        // Every explicit foreground: ESC[38;2;R;G;Bm.
        var colours: [(Double, Double, Double)] = []
        var rest = Substring(screen)
        while let start = rest.range(of: "\u{1B}[38;2;") {
            let numbers = rest[start.upperBound...].prefix { $0 != "m" }.split(separator: ";").compactMap { Double($0) }
            if numbers.count == 3 { colours.append((numbers[0], numbers[1], numbers[2])) }
            rest = rest[start.upperBound...]
        }
        for colour in colours {
            #expect(Self.contrast(colour, (30, 30, 30)) >= 3, "\(colour) on #1E1E1E")
            #expect(Self.contrast(colour, (255, 255, 255)) >= 3, "\(colour) on white")
        }
        let plain = screen.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        let lines = plain.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.last?.trimmingCharacters(in: .whitespaces) == "100,000", "the caption as text: \(plain)")
        let picture = lines.dropLast()
        let blank = Character(UnicodeScalar(0x2800)!)
        #expect(picture.first.map { $0.contains { $0 != blank && !$0.isWhitespace } } == true, "no blank first row")
        #expect(picture.last.map { $0.contains { $0 != blank && !$0.isWhitespace } } == true, "no blank last row")
        for setting in ["NO_COLOR=1", "TERM=dumb"] {
            let quiet = try Self.pane(
                "unset COLORFGBG; \(setting) \(tally) render 137 --columns 60", until: "⣿", colorTerm: "truecolor")
            #expect(!quiet.contains("\u{1B}[38") && !quiet.contains("\u{1B}[39"), "\(setting): no colour")
            #expect(quiet.unicodeScalars.contains(where: Self.isBraille))
        }
    }

    /// WCAG 2.2's contrast ratio, written out here rather than read from the code.
    static func contrast(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        func linear(_ channel: Double) -> Double {
            let c = channel / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        func luminance(_ c: (Double, Double, Double)) -> Double {
            0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2)
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// Every picture line is `columns` cells, and there are at most as many lines as a
    /// `2 × columns` px image has rows of 4 px (blank rows around the marks are left out): the
    /// scene is planned for the cell resolution. A caption is a line of text under the picture.
    @Test(arguments: [20, 80, 137])
    func thePreviewIsAsWideAsAsked(_ columns: Int) throws {
        for count in ["137", "9999", "1234567"] {
            let run = try TallyProcess.run(["render", count, "-f", "term", "--columns", String(columns)])
            #expect(run.status == 0, "\(run.stderr)")
            var lines = Self.lines(run.text)
            if count == "1234567" {
                let caption = columns >= 9 ? "1,234,567" : "1.23M"
                #expect(lines.last?.trimmingCharacters(in: .whitespaces) == caption, "\(count) at \(columns)")
                lines.removeLast()
            }
            #expect(
                lines.allSatisfy { $0.unicodeScalars.count == columns && $0.unicodeScalars.allSatisfy(Self.isBraille) })
            let json = try TallyProcess.run(
                ["render", count, "-f", "json", "--width", String(2 * columns), "--no-caption"]
            ).stdout
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let viewport = try #require(object["viewport"] as? [String: Any])
            let pixels = try #require(viewport["pixels"] as? [String: Any])
            let height = try #require(pixels["height"] as? Int)
            #expect(lines.count <= (height + 3) / 4, "\(count) at \(columns)")
            let blank = UnicodeScalar(0x2800)!
            #expect(lines.first?.unicodeScalars.contains { $0 != blank } == true, "no blank first row")
            #expect(lines.last?.unicodeScalars.contains { $0 != blank } == true, "no blank last row")
        }
        let fromEnvironment = try TallyProcess.run(["render", "137", "-f", "term"], environment: ["COLUMNS": "50"])
        #expect(Self.lines(fromEnvironment.text).allSatisfy { $0.unicodeScalars.count == 50 })
    }

    /// Colour only on a terminal or when asked; the dark palette where COLORFGBG says the
    /// background is dark; plain characters never carry an escape.
    @Test func colourFollowsTheOutputAndTheBackground() throws {
        let plain = try TallyProcess.run(["render", "137", "-f", "term"])
        #expect(!plain.text.contains("\u{1B}"), "a pipe gets plain characters")
        let never = try TallyProcess.run(["render", "137", "-f", "term", "--color", "never"])
        #expect(never.text == plain.text)
        let truecolor = ["COLORTERM": "truecolor"]
        let unknown = try TallyProcess.run(
            ["render", "137", "-f", "term", "--color", "always"], environment: truecolor)
        #expect(
            unknown.text.contains("\u{1B}[39m"),
            "ink in the terminal's own foreground where the background is not known")
        #expect(!unknown.text.contains("\u{1B}[38;2;38;38;41m"), "not the light palette's ink, #262629")
        let light = try TallyProcess.run(
            ["render", "137", "-f", "term", "--color", "always", "--theme", "light"], environment: truecolor)
        #expect(light.text.contains("\u{1B}[38;2;38;38;41m"), "the light palette's ink, #262629")
        var darkTerminal = truecolor
        darkTerminal["COLORFGBG"] = "15;0"
        let dark = try TallyProcess.run(
            ["render", "137", "-f", "term", "--color", "always"], environment: darkTerminal)
        #expect(dark.text.contains("\u{1B}[38;2;235;235;237m"), "the dark palette's ink, #EBEBED")
        let forced = try TallyProcess.run(
            ["render", "137", "-f", "term", "--color", "always", "--theme", "light"], environment: darkTerminal)
        #expect(forced.text == light.text, "--theme light wins over COLORFGBG")
        let palette = try TallyProcess.run(
            ["render", "137", "-f", "term", "--color", "always"], environment: ["COLORTERM": ""])
        #expect(palette.text.contains("\u{1B}[38;5;"), "256 colours without COLORTERM")
        let noColor = try TallyProcess.run(
            ["render", "137", "-f", "term", "--color", "auto"], environment: ["NO_COLOR": "1"])
        #expect(!noColor.text.contains("\u{1B}"))
        let asked = try TallyProcess.run(
            ["render", "137", "-f", "term", "--color", "always"], environment: ["NO_COLOR": "1"])
        #expect(asked.text.contains("\u{1B}["), "--color always is asked for in so many words")
    }

    /// describe --picture prints the preview above the words.
    @Test func describeDrawsThePictureAboveTheWords() throws {
        let run = try TallyProcess.run(["describe", "1234", "--picture", "--columns", "30"])
        #expect(run.status == 0)
        let lines = Self.lines(run.text)
        #expect(
            lines.suffix(2) == [
                "1,234 tally marks", "1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and 4 strokes",
            ])
        #expect(
            lines.dropLast(2).allSatisfy {
                $0.unicodeScalars.count == 30 && $0.unicodeScalars.allSatisfy(Self.isBraille)
            })
    }

    /// Bad widths and colour modes: one line each, exit 64.
    @Test(arguments: [
        (["render", "5", "-f", "term", "--columns", "0"], "--columns '0' is not a width"),
        (["render", "5", "-f", "term", "--columns", "100000"], "--columns '100000' is not a width"),
        (["render", "5", "-f", "term", "--columns", "x"], "--columns 'x' is not a width"),
        (["render", "5", "-f", "term", "--color", "sometimes"], "--color 'sometimes' is not a colour mode"),
        (["render", "5", "-f", "gif"], "use svg, png, pdf, json or term"),
    ])
    func badPreviewOptionsAreOneLine(_ arguments: [String], _ needle: String) throws {
        expectOneLineError(try TallyProcess.run(arguments), status: 64, mentioning: needle)
    }
}
