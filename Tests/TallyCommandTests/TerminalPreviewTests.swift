import Foundation
import TallyCommands
import TallyGeometry
import TallyOptions
import TallyRender
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
    @Test(.enabled(if: canRun(tmux), "needs tmux"), .readByAnOutsideProgram, .processTimeLimit(minutes: 2))
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

    /// A command in a new tmux pane (`columns` × 60, no COLORFGBG), once `marker` shows (at most
    /// 10 s): the pane with its escapes, or with `joined` its plain text with wrapped lines joined
    /// (`capture-pane -J`), so a line wider than the pane shows as one. One shell runs each
    /// session (a tmux server started by a command that has ended does not outlive it under
    /// Foundation's Process): start the pane, wait for its output, print the pane, stop the
    /// server; and the server is stopped again however the shell ended (killed at its time limit).
    static func pane(
        _ command: String, until marker: String, colorTerm: String, columns: Int = 100, joined: Bool = false
    ) throws -> String {
        let tmux = try #require(Self.tmux, "tmux is missing").path
        let shell = try #require(installedProgram("sh"))
        let socket = "tally-test-\(UUID().uuidString.prefix(8))"
        defer { _ = try? runProgram(URL(fileURLWithPath: tmux), ["-L", socket, "kill-server"], timeout: 10) }
        let script = """
            '\(tmux)' -u -L \(socket) -f /dev/null new-session -d -x \(columns) -y 60 -e COLORTERM=\(colorTerm) "\(command); sleep 60" >/dev/null 2>&1
            for i in $(seq 1 100); do
              '\(tmux)' -L \(socket) capture-pane -p 2>/dev/null | grep -q '\(marker)' && break
              sleep 0.1
            done
            '\(tmux)' -L \(socket) capture-pane \(joined ? "-J" : "-e") -p
            '\(tmux)' -L \(socket) kill-server >/dev/null 2>&1
            """
        return try runProgram(
            shell, ["-c", script], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"], timeout: 30
        ).text
    }

    /// SPEC §6: the preview is as wide as the terminal it is shown in. In a 60-column tmux pane,
    /// with COLUMNS unset (bash does not export it), `tally render 137 -f term` fills the pane and
    /// no line passes it: the width comes from the pane's window size, not a default of 80 that
    /// wraps every line. Standard output is the pane itself here, not a file, so the preview
    /// takes the path a user's terminal does.
    @Test(.enabled(if: canRun(tmux), "needs tmux"), .readByAnOutsideProgram, .processTimeLimit(minutes: 2))
    func thePreviewFitsTheTerminalItIsShownIn() throws {
        let tally = "'\(TallyProcess.executable.path)'"
        let screen = try Self.pane(
            "env -u COLUMNS \(tally) render 137 -f term --color never; echo preview-done", until: "preview-done",
            colorTerm: "truecolor", columns: 60, joined: true)
        let lines = screen.split(separator: "\n").map { String($0) }
        let picture = lines.filter { $0.unicodeScalars.contains(where: Self.isBraille) }
        #expect(!picture.isEmpty, "a preview: \(screen.prefix(300))")
        for line in lines {
            // Braille cells and ASCII are one column each, so scalars count columns.
            #expect(line.unicodeScalars.allSatisfy { $0.isASCII || Self.isBraille($0) }, "\(line)")
            #expect(line.unicodeScalars.count <= 60, "a line of \(line.unicodeScalars.count) columns: \(line)")
        }
        #expect(picture.contains { $0.unicodeScalars.count == 60 }, "the preview is the pane's width: \(screen)")
    }

    /// SPEC §6: the preview's width is `--columns`, else the terminal's, else `COLUMNS`, else 80;
    /// a width out of range from the terminal or `COLUMNS` is passed over, and a bad
    /// `--columns` is an error. Over every source present or not, in range or not.
    /// SPEC §6, `-f term`: at 80 columns a preview is at most 24 lines, its caption's included,
    /// for a picture with a lens under it (137 in 80 columns was 39), one of rows (2,524) and
    /// one of blocks (99,999): an 80 × 24 terminal shows it whole. At 40 columns a row's
    /// finished squares stay boxes.
    @Test func aPreviewFitsATerminal() throws {
        for count: UInt64 in [137, 2_524, 9_999, 99_999, 1_000_000] {
            let text = try Renderer.terminal(
                try #require(TallyCount(exactly: count)), RenderSettings(), columns: 80, dark: nil, colors: .none)
            #expect(Self.lines(text).count <= 24, "\(count) at 80 columns: \(Self.lines(text).count) lines")
        }
        let layout = try Renderer.layout(1_234, .svg, RenderSettings(side: .width(80)))
        #expect(layout.scene.marks.filter { $0.kind == .box && $0.unit == 100 }.count == 10)
    }

    @Test func theWidthIsAskedThenTheTerminalsThenCOLUMNSThen80() throws {
        let terminals: [Int?] = [nil, 0, 3, 4, 60, 132, 2000, 2001]
        let environments: [String?] = [nil, "", "abc", "3", "4", "50", "2000", "2001"]
        let asked: [String?] = [nil, "4", "30", "2000"]
        for terminal in terminals {
            for columns in environments {
                for option in asked {
                    let width = try TerminalWidth.columns(
                        asked: option, terminal: { terminal }, environment: { $0 == "COLUMNS" ? columns : nil })
                    let fromTerminal = terminal.flatMap { (4...2000).contains($0) ? $0 : nil }
                    let fromEnvironment = columns.flatMap(Int.init).flatMap { (4...2000).contains($0) ? $0 : nil }
                    let expected = option.flatMap(Int.init) ?? fromTerminal ?? fromEnvironment ?? 80
                    #expect(
                        width == expected,
                        "--columns \(option ?? "-"), terminal \(terminal ?? -1), COLUMNS \(columns ?? "-")")
                }
            }
        }
        for bad in ["0", "3", "2001", "x", ""] {
            #expect(throws: CommandFailure.self, "--columns '\(bad)'") {
                try TerminalWidth.columns(asked: bad, terminal: { 60 }, environment: { _ in "50" })
            }
        }
    }

    /// The braille dots a preview lights (each cell's pattern is its offset from U+2800).
    static func dots(_ text: String) -> Int {
        text.unicodeScalars.filter(isBraille).map { ($0.value - 0x2800).nonzeroBitCount }.reduce(0, +)
    }

    /// SPEC §2, "Weight follows quantity", in the preview without colour (NO_COLOR), where dots
    /// are the only ink: a unit being filled, drawn as a wash, never lights more dots than a
    /// complete sibling. The dots a count's partial unit adds (n against n rounded down to that
    /// unit) are at most those its last complete sibling added (rounded down, against one unit
    /// less), in a frame pinned so the three pictures share one layout. The unit is the one the
    /// JSON scene at the preview's resolution washes; every case has one (a quarter beside
    /// finished ones that keep their gates shows its strokes instead, SPEC §2, so the cases of
    /// a hundred-block alone at 30 columns are a row's now). A solid wash lit 80 dots in
    /// 99,999's tenth block against a finished block's 44.
    @Test(arguments: [
        (["99999"], 80), (["99999"], 60), (["137", "--frame", "1000"], 80), (["137", "--frame", "1000"], 120),
        (["1234", "--frame", "10000"], 40), (["1234", "--frame", "10000"], 80), (["4999", "--frame", "10000"], 20),
        (["4999", "--frame", "10000"], 60), (["199", "--frame", "1000"], 30), (["299", "--of", "1000"], 40),
        (["174", "--frame", "1000"], 40), (["399", "--frame", "1000"], 20),
    ])
    func aPartialUnitLightsNoMoreDotsThanAFinishedOne(_ arguments: [String], _ columns: Int) throws {
        let scene = try TallyProcess.run(
            // The picture's own partial unit: no copy of it beside the picture (SPEC §2, "An
            // inset for the last digits").
            ["render"] + arguments + ["-f", "json", "--width", String(2 * columns), "--no-caption", "--no-inset"]
        ).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: scene) as? [String: Any])
        let marks = try #require(object["marks"] as? [[String: Any]])
        let washes = marks.filter { $0["kind"] as? String == "progress" }
        try #require(washes.count == 1, "\(arguments) at \(columns) columns has one wash")
        let unit = try #require(washes[0]["unit"] as? Int)
        let count = try #require(Int(arguments[0]))
        let (whole, before) = (count - count % unit, count - count % unit - unit)
        try #require(before >= 0)
        func dots(_ value: Int) throws -> Int {
            let run = try TallyProcess.run(
                ["render", String(value)] + arguments.dropFirst()
                    + ["-f", "term", "--no-caption", "--no-inset", "--columns", String(columns)],
                environment: ["NO_COLOR": "1"])
            #expect(run.status == 0, "\(run.stderr)")
            return Self.dots(run.text)
        }
        let partial = try dots(count) - dots(whole)
        let complete = try dots(whole) - dots(before)
        #expect(partial <= complete, "\(arguments) at \(columns) columns: a unit of \(unit) being filled")
    }

    /// SPEC §2, "Weight follows quantity", in colour: a wash is drawn in a tone fainter than the
    /// finished marks around it. 99,999 uses one colour that 90,000 in the same frame (no wash)
    /// does not: on a known theme it has less contrast on the paper than every other colour
    /// there and still 3:1 (the ink at 55% over the paper: #858586 light, #8E8E90 dark); where
    /// the background is not known (ink in the terminal's foreground) it is 3:1 on white and on
    /// #1E1E1E alike.
    @Test func theWashIsFainterThanTheFinishedMarksInColour() throws {
        func colours(_ count: String, _ options: [String], _ environment: [String: String]) throws -> Set<[Double]> {
            let run = try TallyProcess.run(
                ["render", count, "--frame", "100000", "-f", "term", "--color", "always"] + options,
                environment: environment.merging(["COLORTERM": "truecolor"]) { $1 })
            var found: Set<[Double]> = []
            var rest = Substring(run.text)
            while let start = rest.range(of: "\u{1B}[38;2;") {
                let numbers = rest[start.upperBound...].prefix { $0 != "m" }.split(separator: ";").compactMap {
                    Double($0)
                }
                if numbers.count == 3 { found.insert(numbers) }
                rest = rest[start.upperBound...]
            }
            return found
        }
        for (theme, paper, wash) in [
            ("light", [250.0, 250, 247], [133.0, 133, 134]), ("dark", [28.0, 28, 31], [142.0, 142, 144]),
        ] {
            let finished = try colours("90000", ["--theme", theme], [:])
            let added = try colours("99999", ["--theme", theme], [:]).subtracting(finished)
            #expect(added == [wash], "\(theme): the wash's own tone")
            let paperColour = (paper[0], paper[1], paper[2])
            let washContrast = Self.contrast((wash[0], wash[1], wash[2]), paperColour)
            #expect(washContrast >= 3, "\(theme)")
            for colour in finished {
                #expect(
                    washContrast < Self.contrast((colour[0], colour[1], colour[2]), paperColour), "\(theme): \(colour)")
            }
        }
        let unknown = ["COLORFGBG": ""]
        let added = try colours("99999", [], unknown).subtracting(try colours("90000", [], unknown))
        #expect(added.count == 1, "the wash's own tone where the background is not known")
        for colour in added {
            #expect(Self.contrast((colour[0], colour[1], colour[2]), (255, 255, 255)) >= 3)
            #expect(Self.contrast((colour[0], colour[1], colour[2]), (30, 30, 30)) >= 3)
        }
    }

    /// In tmux, without COLORFGBG (unset by most terminals): every colour the preview names is at
    /// least 3:1 on a #1E1E1E terminal and on a white one (ink is the terminal's own foreground);
    /// NO_COLOR and TERM=dumb give no colour; the caption is text; no blank rows around it.
    @Test(.enabled(if: canRun(tmux), "needs tmux"), .readByAnOutsideProgram, .processTimeLimit(minutes: 2))
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
            // The caption, a line of text: from 10,000, and below it by the one digits rule.
            if count == "1234567" || lines.last?.unicodeScalars.allSatisfy(Self.isBraille) == false {
                let grouped = count.count > 3 ? "\(count.dropLast(3)),\(count.suffix(3))" : count
                let caption = count != "1234567" ? grouped : columns >= 9 ? "1,234,567" : "1.23M"
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
        let picture = Self.lines(fromEnvironment.text).filter { $0.unicodeScalars.allSatisfy(Self.isBraille) }
        #expect(!picture.isEmpty && picture.allSatisfy { $0.unicodeScalars.count == 50 })
    }

    /// Colour only on a terminal or when asked; the dark palette where COLORFGBG says the
    /// background is dark; plain characters never carry an escape. 24 is drawn in strokes, so
    /// its picture carries the ink (137's only ink was its wash, which has a tone of its own).
    @Test func colourFollowsTheOutputAndTheBackground() throws {
        let plain = try TallyProcess.run(["render", "24", "-f", "term"])
        #expect(!plain.text.contains("\u{1B}"), "a pipe gets plain characters")
        let never = try TallyProcess.run(["render", "24", "-f", "term", "--color", "never"])
        #expect(never.text == plain.text)
        let truecolor = ["COLORTERM": "truecolor"]
        let unknown = try TallyProcess.run(
            ["render", "24", "-f", "term", "--color", "always"], environment: truecolor)
        #expect(
            unknown.text.contains("\u{1B}[39m"),
            "ink in the terminal's own foreground where the background is not known")
        #expect(!unknown.text.contains("\u{1B}[38;2;38;38;41m"), "not the light palette's ink, #262629")
        let light = try TallyProcess.run(
            ["render", "24", "-f", "term", "--color", "always", "--theme", "light"], environment: truecolor)
        #expect(light.text.contains("\u{1B}[38;2;38;38;41m"), "the light palette's ink, #262629")
        var darkTerminal = truecolor
        darkTerminal["COLORFGBG"] = "15;0"
        let dark = try TallyProcess.run(
            ["render", "24", "-f", "term", "--color", "always"], environment: darkTerminal)
        #expect(dark.text.contains("\u{1B}[38;2;235;235;237m"), "the dark palette's ink, #EBEBED")
        let forced = try TallyProcess.run(
            ["render", "24", "-f", "term", "--color", "always", "--theme", "light"], environment: darkTerminal)
        #expect(forced.text == light.text, "--theme light wins over COLORFGBG")
        let palette = try TallyProcess.run(
            ["render", "24", "-f", "term", "--color", "always"], environment: ["COLORTERM": ""])
        #expect(palette.text.contains("\u{1B}[38;5;"), "256 colours without COLORTERM")
        let noColor = try TallyProcess.run(
            ["render", "24", "-f", "term", "--color", "auto"], environment: ["NO_COLOR": "1"])
        #expect(!noColor.text.contains("\u{1B}"))
        let asked = try TallyProcess.run(
            ["render", "24", "-f", "term", "--color", "always"], environment: ["NO_COLOR": "1"])
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
        // At 60 px the picture's rows are too small for its gates and leave no room for a lens:
        // the count is written under it (SPEC §2, "One digits rule").
        #expect(lines.dropLast(2).last?.trimmingCharacters(in: .whitespaces) == "1,234")
        #expect(
            lines.dropLast(3).allSatisfy {
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
