import Foundation
import TallyTestSupport
import Testing

#if Cairo
import TallyCairo
#endif

@Suite struct GalleryTests {
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func everyFormatIsWritten() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for ext in ["svg", "png", "pdf", "html"] {
            let path = directory.appendingPathComponent("g.\(ext)").path
            let run = try TallyProcess.run(["gallery", "-o", path])
            #expect(run.status == 0, "\(ext): \(run.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let prefixes: [String: [UInt8]] = [
                "svg": Array("<svg".utf8), "png": [0x89, 0x50], "pdf": Array("%PDF".utf8),
                "html": Array("<!doctype".utf8),
            ]
            #expect(data.starts(with: prefixes[ext]!), "\(ext)")
        }
    }

    /// Columns follow the number of tiles (seven are four and three, not six and one),
    /// and --label titles the sheet, escaped.
    @Test func columnsAreBalancedAndTheLabelIsTheTitle() throws {
        let run = try TallyProcess.run([
            "gallery", "99,100,999,1000,9999,10000,10001", "-f", "svg", "--label", "Collapses <&>",
        ])
        #expect(run.status == 0)
        // 24 px margins and gaps around 160 px tiles: four columns are 2·24 + 4·160 + 3·24 = 760 px.
        #expect(run.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"gallery-"))
        #expect(run.text.contains("\" width=\"760\""))
        #expect(run.text.contains("-title\">Collapses &lt;&amp;&gt;</title>"))
        let six = try TallyProcess.run(["gallery", "1...6", "-f", "svg"])
        #expect(six.text.contains("width=\"1128\""))  // one full row of six
        let html = try TallyProcess.run(["gallery", "1,2", "-f", "html", "--label", "Days"])
        #expect(html.text.contains("<title>Days</title>"))
    }

    /// The 1,000-count limit is reachable at the default tile size (large
    /// sheets get more columns), and a sheet too large for an image says so, not "--size".
    @Test func aThousandCountsMakeASheet() throws {
        let run = try TallyProcess.run(["gallery", "1...1000", "-f", "svg"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text.components(separatedBy: "<svg ").count - 1 == 1_001)
        expectOneLineError(
            try TallyProcess.run(["gallery", "1...1000", "--size", "1000", "-f", "svg"]), status: 64,
            mentioning: "a gallery of 1,000 counts in 1000 px tiles is")
    }

    @Test func theHTMLPageIsSelfContained() throws {
        let run = try TallyProcess.run(["gallery", "-f", "html"])
        #expect(run.status == 0)
        let html = run.text.lowercased()
        #expect(
            !html.contains("src=") && !html.contains("href=") && !html.contains("url(") && !html.contains("<script")
                && !html.contains("@import"))
        // One inline SVG and one caption a threshold, each SVG with its own id.
        #expect(html.components(separatedBy: "<svg ").count - 1 == 26)
        #expect(html.contains("<figcaption>9,223,372,036,854,775,807</figcaption>"))
        let ids = html.components(separatedBy: " id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(ids.count == 3 * 26 && Set(ids).count == ids.count)  // a root, a title and a desc each
    }

    #if Cairo
    @Test(.enabled(if: canRun(chromiumProgram), "needs chromium (make test-deps installs it)"), .readByAnOutsideProgram)
    func chromiumShowsEveryTally() throws {
        let chromium = try #require(chromiumProgram, "chromium is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("g.html")
        let shot = directory.appendingPathComponent("shot.png")
        #expect(try TallyProcess.run(["gallery", "-o", page.path]).status == 0)
        let run = try runProgram(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=" + directory.appendingPathComponent("profile").path,
                "--window-size=1280,1400", "--screenshot=" + shot.path, page.absoluteString,
            ])
        #expect(FileManager.default.fileExists(atPath: shot.path), "chromium: \(run.stderr.suffix(400))")
        // Not blank: the page is paper-coloured, and the tallies put dark and red ink on it.
        let image = try #require(PNGImage(png: Array(try Data(contentsOf: shot))))
        let inked = image.pixels.filter { pixel in
            let (r, g, b) = (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
            return r + g + b < 3 * 160 || (r > 180 && g < 120)
        }.count
        #expect(Double(inked) / Double(image.pixels.count) > 0.01, "only \(inked) inked pixels")
        let red = image.pixels.filter { ($0 >> 16 & 0xFF) > 180 && ($0 >> 8 & 0xFF) < 120 && ($0 & 0xFF) < 120 }.count
        #expect(red > 100, "the slashes should show in the signature red")
    }
    #endif

    @Test(arguments: [
        (["gallery", "0...5000"], "a gallery shows at most 1,000 counts; this one has 5,001"),
        (["gallery", "-o", "g.gif"], "g.gif"),
        (["gallery", "--animate"], "--animate"),
        (["gallery", "--size", "5000"], "16,384"),
    ])
    func badGalleriesExit64(_ arguments: [String], _ needle: String) throws {
        expectOneLineError(try TallyProcess.run(arguments), status: 64, mentioning: needle)
    }
}
