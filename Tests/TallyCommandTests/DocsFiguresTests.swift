import Foundation
import TallyGeometry
import TallyStyle
import TallyTestSupport
import Testing

/// The figures docs/SPEC.md, the README and its guides state (opacities, pens, thresholds, limits, the
/// palette) are the code's: each is written here from the code's constant, in the words the
/// docs use, and must be found in them. Change a constant without its docs, or the docs without
/// the constant, and this fails (SPEC §2, §3, §6).
@Suite struct DocsFiguresTests {
    /// A document's text with every run of white space made one space, so a figure wrapped
    /// across lines is still found.
    private static func text(_ path: String) throws -> String {
        let url = TallyProcess.packageRoot.appendingPathComponent(path)
        let raw = try String(contentsOf: url, encoding: .utf8)
        return raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// 0.06 → "6%".
    private static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }

    /// 16384 → "16,384"; 7.0 → "7".
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? Words.grouped(UInt64(value)) : "\(value)"
    }

    /// Each figure is in the document; on failure only the figure it lacks is printed.
    private static func expect(
        _ figures: [String], in text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for figure in figures {
            let found = text.contains(figure)
            #expect(found, "\(name) does not say \"\(figure)\"", sourceLocation: sourceLocation)
        }
    }

    @Test func theSpecStatesTheCodesFigures() throws {
        let spec = try Self.text("docs/SPEC.md")
        let figures = [
            "c1 at up to \(Self.percent(Proportions.progressTintOpacity))",
            "down to \(Self.percent(Proportions.faintestTintOpacity))",
            "c1 at \(Self.percent(Proportions.progressOpacity))",
            "never under \(Self.number(Magnitude.minimumDigitPixels)) px",
            "box under \(Self.number(Proportions.smallestCappedBoxPixels)) px",
            "\(Self.number(Viewport.maximumSide)) px a side",
            "pen (\(Self.number(Proportions.standard.quincunxCrossWidth)) against \(Self.number(Proportions.standard.slashWidth)) units)",
            "every picture of a count of \(Self.number(Double(Magnitude.captionedFrom))) or more",
        ]
        Self.expect(figures, in: spec, "docs/SPEC.md")
        // §3's table: every token in both themes.
        for (token, role) in [
            ("paper", \Palette.paper), ("c1", \.c1), ("c2", \.c2), ("c3", \.c3), ("accent", \.accent),
        ] {
            let light = Palette.light[keyPath: role].css.uppercased()
            let dark = Palette.dark[keyPath: role].css.uppercased()
            let found = spec.contains("| `\(light)` | `\(dark)` |")
            #expect(found, "docs/SPEC.md §3 does not give \(token) as \(light), \(dark)")
        }
        // §3's mid tones, auto on a transparent background, for a light and a dark OS.
        for (token, role) in [("c1", \Palette.c1), ("c2", \.c2), ("c3", \.c3), ("accent", \.accent)] {
            let light = Palette.midLight[keyPath: role].css.uppercased()
            let dark = Palette.midDark[keyPath: role].css.uppercased()
            let found = spec.contains("| \(token) | `\(light)` | `\(dark)` |")
            #expect(found, "docs/SPEC.md §3 does not give the mid \(token) as \(light), \(dark)")
        }
    }

    /// The largest count (SPEC §2), where the README, the SPEC and the badges' guide name it.
    @Test func theLargestCountIsTheCodes() throws {
        let largest = Words.grouped(TallyCount.maximum.value)
        #expect(largest == "9,223,372,036,854,775,807")
        for document in ["README.md", "docs/SPEC.md", "docs/badges.md"] {
            Self.expect(["up to \(largest)"], in: try Self.text(document), document)
        }
        Self.expect(
            ["\(Self.number(Viewport.maximumPixels / 1_000_000)) megapixels"], in: try Self.text("docs/SPEC.md"),
            "docs/SPEC.md")
    }

    /// The README and the guides it links to, where the figures moved from the README.
    @Test func theReadmeStatesTheCodesFigures() throws {
        let documents = ["README.md", "docs/design.md", "docs/reference.md", "docs/serving.md"]
        let readme = try documents.map(Self.text).joined(separator: " ")
        let figures = [
            "`opacity` at most \(Proportions.progressTintOpacity), a tint",
            "at \(Proportions.progressOpacity))",
            "never under \(Self.number(Magnitude.minimumDigitPixels)) px",
            "at least \(Self.number(Magnitude.minimumDigitPixels)) px tall",
            "box under \(Self.number(Proportions.smallestCappedBoxPixels)) px",
            "at most \(Self.number(Viewport.maximumSide)) px a side",
        ]
        Self.expect(figures, in: readme, documents.joined(separator: ", "))
    }
}
