import Foundation
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
import Testing

/// SPEC §5: user text is escaped, colours are validated, and no script, event
/// attribute or external reference ever appears.
@Suite struct SVGSafetyTests {
    static let hostileLabels = [
        "<script>alert(1)</script>",
        "\"><svg onload=alert(1)>",
        "' onmouseover='alert(1)",
        "]]><![CDATA[<x>",
        "&amp; &lt; &#x3C; &unknown;",
        "tab\there\nnew line\u{0}nul\u{1B}[31mesc\u{7F}",
        "emoji 🔥 and RTL \u{202E}olleh",
        "<!-- comment --> <?pi x?> <!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>",
    ]

    private func expectNothingActive(_ root: XMLElement, sourceLocation: SourceLocation = #_sourceLocation) {
        let all = [root] + root.descendants
        let allowed: Set<String> = ["svg", "title", "desc", "style", "rect", "path"]
        for element in all {
            #expect(allowed.contains(element.name), "unexpected <\(element.name)>", sourceLocation: sourceLocation)
            for (name, value) in element.attributes {
                #expect(!name.lowercased().hasPrefix("on"), "event attribute \(name)", sourceLocation: sourceLocation)
                #expect(!name.lowercased().contains("href"), "reference \(name)", sourceLocation: sourceLocation)
                #expect(!value.lowercased().contains("url("), "reference in \(name)", sourceLocation: sourceLocation)
                #expect(!value.lowercased().contains("javascript:"), sourceLocation: sourceLocation)
            }
        }
        let style = root.first("style")?.text.lowercased() ?? ""
        #expect(
            !style.contains("url(") && !style.contains("@import") && !style.contains("expression("),
            sourceLocation: sourceLocation)
    }

    @Test(arguments: hostileLabels)
    func labelsComeOutAsText(_ label: String) throws {
        let data = try render(137, RenderSettings(label: label))
        let root = try parsed(data)
        let expected = String(
            String.UnicodeScalarView(
                label.unicodeScalars.map { scalar in
                    let v = scalar.value
                    let allowed = v == 9 || v == 10 || v == 13 || (v >= 0x20 && !(0x7F...0x9F).contains(v))
                    return allowed ? scalar : "\u{FFFD}"
                }))
        #expect(root.first("title")?.text == expected)
        #expect(root.first("title")?.children.isEmpty == true)
        expectNothingActive(root)
    }

    @Test func theScriptLabelIsEscapedOnTheCommandLine() throws {
        let run = try TallyProcess.run(["render", "1234", "--label", "<script>alert(1)</script>"])
        #expect(run.status == 0)
        #expect(run.text.contains("-title\">&lt;script&gt;alert(1)&lt;/script&gt;</title>"))
        #expect(!run.text.contains("<script"))
    }

    @Test(arguments: [
        "red;}", "red;}</style><script>alert(1)</script>", "url(#x)", "#12345", "#1234567", "#ggg",
        "rgb(0,0,0)", "expression(alert(1))", "", " red", "red ", "#", "var(--x)", "inherit", "currentColor",
    ])
    func badColoursExit64(_ colour: String) throws {
        for option in ["--ink", "--c2", "--c3", "--accent", "--background"] {
            let run = try TallyProcess.run(["render", "5", option, colour])
            expectOneLineError(run, status: 64, mentioning: option)
        }
    }

    @Test(arguments: ["#abc", "#AABBCC", "#aabbcc80", "RebeccaPurple", "red", "none", "transparent"])
    func goodColoursAreAccepted(_ colour: String) throws {
        let run = try TallyProcess.run(["render", "30", "--ink", colour, "--background", colour])
        #expect(run.status == 0, "\(run.stderr)")
        expectNothingActive(try parsed(run.stdout))
        #expect(
            !run.text.contains(colour) || colour.hasPrefix("#") && colour == colour.lowercased() || colour == "none")
    }

    @Test func everyVariantIsFreeOfActiveContent() throws {
        for settings in [
            RenderSettings(appearance: Appearance(theme: .auto, background: .paper), animation: .all),
            RenderSettings(style: .ink, animation: .since(TallyCount(exactly: 20)!)),
        ] {
            expectNothingActive(try parsed(try render(26, settings)))
        }
    }
}
