import Foundation
import Testing
import TallyGeometry
import TallyRender
import TallyTestSupport

/// Issue 3's acceptance: real consumers accept our SVG. Each test skips with a printed reason
/// where its program is missing; `make test` installs them.
@Suite(.serialized) struct SVGConsumerTests {
    private func file(_ data: Data, _ name: String) throws -> URL {
        let directory = try TallyProcess.temporaryDirectory()
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test func rsvgConvertRendersIt() throws {
        guard let rsvg = installedProgram("rsvg-convert") else {
            print("skipped: rsvg-convert is not installed (apt-get install librsvg2-bin)")
            return
        }
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

    @Test func scourShrinksItByAtMostTenPercent() throws {
        guard let scour = installedProgram("scour") else {
            print("skipped: scour is not installed (apt-get install scour)")
            return
        }
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
            #expect(Double(after) >= 0.9 * Double(before), "scour shrank \(count) \(extra) from \(before) to \(after) bytes")
        }
    }

    /// Loads a page in headless Chromium and returns the document title a script in the page set.
    private func chromiumTitle(_ page: String, dark: Bool) throws -> String? {
        guard let chromium = installedProgram("chromium") ?? installedProgram("chromium-browser") else { return nil }
        let url = try file(Data(page.utf8), "page.html")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + url.deletingLastPathComponent().appendingPathComponent("profile").path]
        if dark { arguments.append("--force-dark-mode") }
        arguments += ["--virtual-time-budget=2000", "--dump-dom", url.absoluteString]
        let run = try runProgram(chromium, arguments)
        let dom = run.text
        guard let start = dom.range(of: "<title>"), let end = dom.range(of: "</title>", range: start.upperBound..<dom.endIndex) else {
            Issue.record("chromium printed no page: \(run.stderr.suffix(500))")
            return ""
        }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    @Test func chromiumLoadsItAsAnImage() throws {
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
        guard let title = try chromiumTitle(page, dark: false) else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        // 1,234 shows two rows of its block: a wide image, as its viewport says.
        let (_, viewport, _) = try Renderer.layout(TallyCount(exactly: 1234)!, RenderSettings())
        #expect(title == "loaded \(Int(viewport.width))x\(Int(viewport.height))" && viewport.height < 128)
    }

    @Test func autoThemeSwitchesUnderADarkColourScheme() throws {
        let svg = String(decoding: try render(7, RenderSettings(appearance: .init(theme: .auto, background: .paper))), as: UTF8.self)
        let page = """
        <!doctype html><html><head><title>pending</title></head><body>\(svg)
        <script>
        const s = getComputedStyle(document.querySelector('#tally .stroke')).stroke;
        const b = getComputedStyle(document.querySelector('#tally .bg')).fill;
        document.title = s + '|' + b;
        </script></body></html>
        """
        guard let light = try chromiumTitle(page, dark: false), let dark = try chromiumTitle(page, dark: true) else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        #expect(light == "rgb(38, 38, 41)|rgb(250, 250, 247)")
        #expect(dark == "rgb(235, 235, 237)|rgb(28, 28, 31)")
    }

    @Test func sameBytesUnderAGermanLocale() throws {
        let arguments = ["render", "1234567", "--size", "999.5", "--scale", "1.25", "--style", "ink", "--seed", "3"]
        let plain = try TallyProcess.run(arguments, environment: ["LC_ALL": "C"])
        let german = try TallyProcess.run(arguments, environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"])
        #expect(plain.status == 0 && german.status == 0)
        #expect(plain.stdout == german.stdout)
        if let locale = installedProgram("locale"), !(try runProgram(locale, ["-a"]).text.lowercased().contains("de_de.utf8")) {
            print("note: the de_DE.UTF-8 locale is not installed here, so the German run fell back to C")
        }
    }
}
