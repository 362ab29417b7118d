import TallyCommands

/// `GET /`: a page that says what the URLs are and draws one. Self-contained: no scripts, no
/// fonts, no outside requests (its Content-Security-Policy allows images from the server only).
enum IndexPage {
    static func html(version: String, maxSize: Int) -> String {
        let example = "/1234.svg?theme=auto&amp;caption"
        let rows = [
            (
                "size, width, height",
                "the longer side, or one side, in pixels (default 256; at most \(Values.pixels(Double(maxSize))) here)"
            ),
            ("scale", "multiply every pixel length, e.g. 2 for @2x"),
            ("padding", "empty margin on every side, in pixels"),
            (
                "theme",
                "light, dark, or auto (follows the viewer's colour scheme; the SVG default; PNG and PDF draw it light, their default)"
            ),
            ("style, seed", "clean or ink (hand-drawn; the same seed draws the same wobble)"),
            ("fit, frame", "content or frame; a frame shared by a sequence of counts (25, 100, 1000, row, …)"),
            ("detail", "auto (only what is legible at the size) or full"),
            ("background", "none, paper or a colour (default: paper for PNG and PDF, none for SVG)"),
            ("ink, c2, c3, accent", "colours: #RGB, #RRGGBB, #RRGGBBAA or a CSS name (# as %23)"),
            ("animate, animate-from", "SVG: draw the marks in, or only those new since a count"),
            ("label", "the accessible title"),
            ("caption", "the count under the tally: on by default from 10,000; caption=false turns it off"),
        ].map { "<tr><td><code>\($0.0)</code></td><td>\($0.1)</td></tr>" }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>tally serve</title>
            <style>
            body { font: 16px/1.5 system-ui, sans-serif; max-width: 44em; margin: 2em auto; padding: 0 1em; color: #1d1d1f; background: #fbfaf7; }
            code { font: 14px ui-monospace, monospace; }
            td { vertical-align: top; padding: 0.2em 1em 0.2em 0; }
            figure { margin: 1.5em 0; }
            @media (prefers-color-scheme: dark) { body { color: #ecebe6; background: #1c1c1e; } a { color: #8ab4f8; } }
            </style>
            </head>
            <body>
            <h1>tally serve</h1>
            <p>Fractal Completion Tallies by URL, drawn by tally \(version). Every URL names its image, so
            responses are immutable: embed them, cache them, put a CDN in front.</p>
            <figure>
            <img src="\(example)" width="256" alt="1,234 tally marks">
            <figcaption><a href="\(example)"><code>\(example)</code></a></figcaption>
            </figure>
            <h2>URLs</h2>
            <ul>
            <li><code>/{count}.svg</code>, <code>.png</code>, <code>.pdf</code>, <code>.json</code>: the image or the scene of a count from 0 to 9223372036854775807</li>
            <li><code>/describe/{count}</code>: its structure as JSON (<code>?frame=</code> as for images)</li>
            <li><code>/healthz</code>: <code>ok</code> while the server runs; <code>/metrics</code>: Prometheus metrics</li>
            </ul>
            <p>In a page: <code>&lt;img src=&quot;https://your.host\(example)&quot; alt=&quot;1,234 tally marks&quot;&gt;</code></p>
            <h2>Query parameters</h2>
            <p>The options of <code>tally render</code>, by the same names and values; a bad value gets 400
            and the message the command line would print.</p>
            <table>
            \(rows)
            </table>
            </body>
            </html>

            """
    }
}
