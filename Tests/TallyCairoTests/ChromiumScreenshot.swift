#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyTestSupport

/// Chromium's screenshot of a page, as the browser tests take it: headless, one device pixel a
/// CSS pixel, a second of virtual time for images to load, in a window of a fixed size.
/// - Parameters:
///   - name: the stem of the page and screenshot files written into `directory`.
///   - window: the window's size; a window larger than the page keeps headless Chromium from
///     clipping it.
///   - dark: the OS colour scheme Chromium reports (`prefers-color-scheme`); nil for its own.
func chromiumScreenshot(
    _ page: String, named name: String, in directory: URL, window: (width: Int, height: Int), dark: Bool? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> PNGImage {
    let chromium = try #require(chromiumProgram, "chromium is missing", sourceLocation: sourceLocation)
    let html = directory.appendingPathComponent("\(name).html")
    let shot = directory.appendingPathComponent("\(name).png")
    try Data(page.utf8).write(to: html)
    var arguments = [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--force-device-scale-factor=1", "--virtual-time-budget=1000",
    ]
    if let dark { arguments.append("--blink-settings=preferredColorScheme=\(dark ? 0 : 1)") }
    arguments += [
        "--user-data-dir=" + directory.appendingPathComponent("profile").path,
        "--window-size=\(window.width),\(window.height)", "--screenshot=" + shot.path, html.absoluteString,
    ]
    let run = try runProgram(chromium, arguments, sourceLocation: sourceLocation)
    #expect(run.status == 0, "chromium: \(run.stderr.suffix(300))", sourceLocation: sourceLocation)
    return try #require(
        PNGImage(png: Array(try Data(contentsOf: shot))), "no screenshot of \(name)", sourceLocation: sourceLocation)
}
#endif
