import TallyOptions
import TallySVG

/// `GET /`: a page that says what the URLs are and draws one. Self-contained: no scripts, no
/// fonts, no outside requests (its Content-Security-Policy allows images from the server only).
enum IndexPage {
    static func html(version: String, maxSize: Int) -> String {
        let example = "/1234.svg?theme=auto&amp;caption"
        // The options model's own table: the same names and help as `tally render --help`.
        let rows = RenderOption.all.map { option in
            let name = option.isSwitch ? option.name : "\(option.name)=\(option.valueName)"
            return "<tr><td><code>\(XMLText.escaped(name))</code></td><td>\(XMLText.escaped(option.help))</td></tr>"
        }.joined(separator: "\n")
        let badgeParameters = Values.list(
            RenderOption.badgeOptions.map { "<code>\($0.queryName)</code>" }, conjunction: "and")
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
            <li><code>/badge/{count}.svg</code>, <code>.png</code>, <code>.pdf</code>: a 20 px badge for a README line, as <code>tally badge</code> draws it, with the parameters \(badgeParameters) (<a href="/badge/1234.svg?label=downloads"><code>/badge/1234.svg?label=downloads</code></a>: <img src="/badge/1234.svg?label=downloads" height="20" alt="downloads: 1,234">)</li>
            <li><code>/describe/{count}</code>: its structure as JSON (<code>?frame=</code> as for images)</li>
            <li><code>/healthz</code>: <code>ok</code> while the server runs; <code>/metrics</code>: Prometheus metrics</li>
            </ul>
            <p>In a page: <code>&lt;img src=&quot;https://your.host\(example)&quot; alt=&quot;1,234 tally marks&quot;&gt;</code></p>
            <h2>Query parameters</h2>
            <p>The options of <code>tally render</code>, by the same names and values; a bad value gets 400
            and the message the command line would print.</p>
            <p>A switch such as <code>caption</code> is on when given alone or as <code>=true</code>, and off
            as <code>=false</code>. This server draws at most \(Values.pixels(Double(maxSize))) px a side.</p>
            <table>
            \(rows)
            </table>
            </body>
            </html>

            """
    }
}
