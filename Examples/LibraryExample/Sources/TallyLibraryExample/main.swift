import Tally

// A reading streak of 137 days, as the three things an app needs: an SVG for the web, a PNG for
// a share sheet, and the scene itself, to draw natively or to inspect.
let days: TallyCount = 137
let svg = try TallyMarks.svg(days, size: 256, theme: .auto)
let scene = TallyMarks.scene(days)
let boxes = scene.marks.filter { $0.kind == .box }.count
print("SVG: \(svg.utf8.count) bytes; scene: \(scene.marks.count) marks, \(boxes) box")

/// The PNG's size, or why there is none: tally built without its Cairo trait writes SVG and JSON
/// only, and links no Cairo.
func pngReport(_ count: TallyCount) throws(RenderError) -> String {
    do {
        return "\(try TallyMarks.png(count, size: 512, theme: .dark, background: .paper).count) bytes"
    } catch {
        guard case .formatUnavailable = error else { throw error }
        return "not in this build (tally's Cairo trait is off)"
    }
}
print("PNG: \(try pngReport(days))")

// Everything a renderer of its own needs, as JSON, and read back.
let json = try TallyMarks.json(days)
let readBack = try TallyScene(json: json)
precondition(readBack.marks.count == scene.marks.count)
print("JSON scene: \(json.utf8.count) bytes, read back")
