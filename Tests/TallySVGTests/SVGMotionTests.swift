import Foundation
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

@Suite struct SVGMotionTests {
    private func animatedPaths(_ root: XMLElement) -> [XMLElement] {
        root.descendants.filter {
            $0.name == "path" && ($0.attributes["class"] ?? "").split(separator: " ").contains("a")
        }
    }

    private func delay(_ path: XMLElement) -> Double {
        let style = path.attributes["style"] ?? ""
        let value = style.split(separator: ";").first { $0.hasPrefix("animation-delay:") }!
        return Double(value.dropFirst("animation-delay:".count).dropLast())!
    }

    @Test func everyMarkDrawsInInCountOrder() throws {
        // Nine marks take 8 × 280 ms + 200 ms: under the limit, so each starts as the last ends.
        let root = try parsed(try render(9, RenderSettings(animation: .all)))
        let paths = animatedPaths(root)
        #expect(paths.count == 9)
        let delays = paths.map(delay)
        #expect(delays == delays.sorted())
        #expect(delays.first == 0)
        // A stroke takes 280 ms; the next starts when it ends.
        #expect(abs(delays[1] - 0.28) < 1e-9)
        #expect(paths.allSatisfy { $0.attributes["pathLength"] == "1" })
        let slash = paths.first { ($0.attributes["class"] ?? "").hasPrefix("slash") }!
        #expect(slash.attributes["style"]!.contains("animation-duration:.2s"))
    }

    @Test func theWholeAnimationEndsNearThreeSeconds() throws {
        for count: UInt64 in [24, 99, 9999] {
            let root = try parsed(
                try render(count, RenderSettings(side: .longer(2000), detail: .full, animation: .all)))
            let last = animatedPaths(root).map(delay).max()!
            #expect(last + 0.28 <= Motion.totalLimit + 0.3, "count \(count)")
        }
    }

    @Test func reducedMotionShowsTheFinalMarks() throws {
        let text = String(decoding: try render(12, RenderSettings(animation: .all)), as: UTF8.self)
        // The only rule that hides marks sits inside the no-preference media query.
        let media = text.range(of: "@media (prefers-reduced-motion:no-preference){")!
        let dash = text.range(of: "stroke-dasharray")!
        #expect(media.upperBound <= dash.lowerBound)
        #expect(text.components(separatedBy: "stroke-dasharray").count == 2)
    }

    @Test func animateFromDrawsInOnlyTheNewMarks() throws {
        let plusOne = try parsed(try render(26, RenderSettings(animation: .since(TallyCount(exactly: 25)!))))
        #expect(animatedPaths(plusOne).count == 1)
        // 25's marks, the new stroke, and the dots of the quarter being filled (SPEC §2, "The
        // partial unit shows its whole cell"), which are still, as a wash's edge is.
        #expect(plusOne.descendants.filter { $0.name == "path" }.count == 26 + 1 + 1)
        let collapse = try parsed(try render(100, RenderSettings(animation: .since(TallyCount(exactly: 99)!))))
        #expect(animatedPaths(collapse).count == 2)  // the box and the cross
        let same = try parsed(try render(40, RenderSettings(animation: .since(TallyCount(exactly: 40)!))))
        #expect(animatedPaths(same).isEmpty)
    }

    @Test func stillImagesHaveNoMotion() throws {
        let text = String(decoding: try render(99), as: UTF8.self)
        #expect(!text.contains("animation") && !text.contains("pathLength"))
    }
}
