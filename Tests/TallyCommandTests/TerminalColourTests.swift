import TallyCommands
import TallyOptions
import TallyTerminal
import Testing

/// SPEC §6, `-f term`: whether the preview is coloured, and in how many colours, decided from
/// `--color`, whether the output is a terminal and the environment, all given here, in
/// process (so `make check` runs it): ANSI on a terminal or with `--color always`; plain with
/// `--color never`, under `NO_COLOR` or on `TERM=dumb`; 24-bit when `COLORTERM` is
/// `truecolor` or `24bit`, else 256 colours.
@Suite struct TerminalColourTests {
    /// The choice for `--color` (nil: not given), a terminal or not, and these variables.
    func colors(_ asked: String?, terminal: Bool, _ environment: [String: String] = [:]) throws -> TerminalColors {
        try TerminalColorChoice.colors(asked: asked, isTerminal: terminal) { environment[$0] }
    }

    @Test func aTerminalIsColouredAndAPipeIsNot() throws {
        #expect(try colors(nil, terminal: true) == .palette256)
        #expect(try colors("auto", terminal: true) == .palette256)
        #expect(try colors(nil, terminal: false) == .none)
        #expect(try colors("auto", terminal: false, ["COLORTERM": "truecolor"]) == .none)
    }

    /// `COLORTERM` names 24-bit colour in either of its two spellings; any other value, or
    /// none, is 256 colours.
    @Test(arguments: ["truecolor", "24bit"])
    func colortermAsksForTwentyFourBits(_ value: String) throws {
        #expect(try colors(nil, terminal: true, ["COLORTERM": value]) == .trueColor)
        #expect(try colors("always", terminal: false, ["COLORTERM": value]) == .trueColor)
    }

    @Test(arguments: ["", "yes", "256", "TrueColor ", "8bit"])
    func otherColortermsAreTwoHundredFiftySix(_ value: String) throws {
        #expect(try colors(nil, terminal: true, ["COLORTERM": value]) == .palette256)
    }

    /// NO_COLOR (no-color.org: set and not empty) and a dumb terminal refuse colour under
    /// `auto`; `--color always` still colours, `--color never` never does.
    @Test func noColorAndDumbTerminalsAreRespected() throws {
        for refusal in [["NO_COLOR": "1"], ["NO_COLOR": "yes"], ["TERM": "dumb"]] {
            var environment = refusal
            environment["COLORTERM"] = "truecolor"
            #expect(try colors(nil, terminal: true, environment) == .none, "\(refusal)")
            #expect(try colors("auto", terminal: true, environment) == .none, "\(refusal)")
            #expect(try colors("always", terminal: true, environment) == .trueColor, "\(refusal)")
            #expect(try colors("never", terminal: true, environment) == .none, "\(refusal)")
        }
        // An empty NO_COLOR is not set, as no-color.org says; another TERM is no refusal.
        #expect(try colors(nil, terminal: true, ["NO_COLOR": ""]) == .palette256)
        #expect(try colors(nil, terminal: true, ["TERM": "xterm-256color"]) == .palette256)
    }

    @Test func neverIsPlainEverywhere() throws {
        #expect(try colors("never", terminal: true, ["COLORTERM": "24bit"]) == .none)
        #expect(try colors("never", terminal: false) == .none)
        #expect(try colors("always", terminal: false) == .palette256)
    }

    /// A bad `--color` is one line naming the option and the value, and the modes.
    @Test func aBadModeIsNamed() {
        #expect(throws: CommandFailure.usage("--color 'sometimes' is not a colour mode; use auto, always or never")) {
            try colors("sometimes", terminal: true)
        }
    }
}
