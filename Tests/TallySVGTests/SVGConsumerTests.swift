import Foundation
import TallyGeometry
import TallyRender
import TallyTestSupport
import Testing

/// Real consumers accept our SVG. Each test is disabled, with its reason,
/// where its program is missing, and fails under CI (`CI` set), where `make test` installs them.
@Suite(.serialized) struct SVGConsumerTests {
    private func file(_ data: Data, _ name: String) throws -> URL {
        let directory = try TallyProcess.temporaryDirectory()
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test(
        .enabled(if: canRun(installedProgram("rsvg-convert")), "needs rsvg-convert (make test-deps installs it)"),
        .readByAnOutsideProgram)
    func rsvgConvertRendersIt() throws {
        let rsvg = try #require(installedProgram("rsvg-convert"), "rsvg-convert is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("t.svg").path
        let png = directory.appendingPathComponent("t.png").path
        let run = try TallyProcess.run(["render", "1234", "-o", svg])
        #expect(run.status == 0)
        for variant in [[String](), ["--theme", "auto", "--background", "paper"], ["--style", "ink", "--animate"]] {
            #expect(try TallyProcess.run(["render", "1234", "-o", svg] + variant).status == 0)
            let converted = try runProgram(rsvg, [svg, "-o", png])
            #expect(converted.status == 0, "rsvg-convert: \(converted.stderr)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test(
        .enabled(if: canRun(installedProgram("scour")), "needs scour (make test-deps installs it)"),
        .readByAnOutsideProgram)
    func scourShrinksItByAtMostTenPercent() throws {
        let scour = try #require(installedProgram("scour"), "scour is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (count, extra) in [("9999", [String]()), ("9999", ["--detail", "full"]), ("137", ["--size", "2000"])] {
            let input = directory.appendingPathComponent("in.svg").path
            let output = directory.appendingPathComponent("out.svg").path
            #expect(try TallyProcess.run(["render", count, "-f", "svg", "-o", input] + extra).status == 0)
            let run = try runProgram(scour, ["-i", input, "-o", output, "--quiet"])
            #expect(run.status == 0, "scour: \(run.stderr)")
            let before = try Data(contentsOf: URL(fileURLWithPath: input)).count
            let after = try Data(contentsOf: URL(fileURLWithPath: output)).count
            #expect(
                Double(after) >= 0.9 * Double(before), "scour shrank \(count) \(extra) from \(before) to \(after) bytes"
            )
        }
    }

    /// Loads a page in headless Chromium and returns the document title a script in the page set.
    private func chromiumTitle(_ page: String, dark: Bool) throws -> String? {
        let chromium = try #require(chromiumProgram, "chromium is missing")
        let url = try file(Data(page.utf8), "page.html")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var arguments = [
            "--headless", "--no-sandbox", "--disable-gpu",
            "--user-data-dir=" + url.deletingLastPathComponent().appendingPathComponent("profile").path,
        ]
        if dark { arguments.append("--force-dark-mode") }
        arguments += ["--virtual-time-budget=2000", "--dump-dom", url.absoluteString]
        let run = try runProgram(chromium, arguments)
        let dom = run.text
        guard let start = dom.range(of: "<title>"),
            let end = dom.range(of: "</title>", range: start.upperBound..<dom.endIndex)
        else {
            Issue.record("chromium printed no page: \(run.stderr.suffix(500))")
            return ""
        }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    @Test(.enabled(if: canRun(chromiumProgram), "needs chromium (make test-deps installs it)"), .readByAnOutsideProgram)
    func chromiumLoadsItAsAnImage() throws {
        let svg = try render(1234)
        let page = """
            <!doctype html><html><head><title>pending</title></head><body>
            <img id="i" src="data:image/svg+xml;base64,\(svg.base64EncodedString())">
            <script>
            const i = document.getElementById('i');
            function done() { document.title = (i.complete && i.naturalWidth > 0) ? 'loaded ' + i.naturalWidth + 'x' + i.naturalHeight : 'broken'; }
            if (i.complete) done(); else { i.onload = done; i.onerror = done; }
            </script></body></html>
            """
        let title = try #require(try chromiumTitle(page, dark: false))
        // 1,234 shows two rows of its block, and under them the copy of its last digits (SPEC
        // §2, "An inset for the last digits"): an image of the size its viewport says.
        let (_, viewport, _) = try Renderer.layout(TallyCount(exactly: 1234)!, .svg, RenderSettings())
        #expect(title == "loaded \(Int(viewport.width))x\(Int(viewport.height))" && viewport.height > 128)
    }

    @Test(.enabled(if: canRun(chromiumProgram), "needs chromium (make test-deps installs it)"), .readByAnOutsideProgram)
    func autoThemeSwitchesUnderADarkColourScheme() throws {
        let svg = String(
            decoding: try render(7, RenderSettings(appearance: .init(theme: .auto, background: .paper))), as: UTF8.self)
        let page = """
            <!doctype html><html><head><title>pending</title></head><body>\(svg)
            <script>
            const s = getComputedStyle(document.querySelector('svg .stroke')).stroke;
            const b = getComputedStyle(document.querySelector('svg .bg')).fill;
            document.title = s + '|' + b;
            </script></body></html>
            """
        let light = try #require(try chromiumTitle(page, dark: false))
        let dark = try #require(try chromiumTitle(page, dark: true))
        #expect(light == "rgb(38, 38, 41)|rgb(250, 250, 247)")
        #expect(dark == "rgb(235, 235, 237)|rgb(28, 28, 31)")
    }

    /// Asked of the C library in process: a process here (`locale -a`) would be cancelled where
    /// a sanitizer skips processes, and read as no locale.
    static let hasGermanLocale: Bool = {
        guard let locale = newlocale(1 << LC_NUMERIC, "de_DE.UTF-8", nil) else { return false }
        freelocale(locale)
        return true
    }()

    @Test(.enabled(if: hasGermanLocale || isCI, "needs the de_DE.UTF-8 locale (make test-deps makes it)"))
    func sameBytesUnderAGermanLocale() throws {
        try #require(Self.hasGermanLocale, "the de_DE.UTF-8 locale is missing")
        let arguments = ["render", "1234567", "--size", "999.5", "--scale", "1.25", "--style", "ink", "--seed", "3"]
        let plain = try TallyProcess.run(arguments, environment: ["LC_ALL": "C"])
        let german = try TallyProcess.run(arguments, environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"])
        #expect(plain.status == 0 && german.status == 0)
        #expect(plain.stdout == german.stdout)
    }
}
