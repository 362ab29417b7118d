import Foundation
import PropertyBased
import TallyBadge
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

/// SPEC §7's badge as an SVG, read back with a real XML parser: well-formed whatever the label
/// holds, its accessible name the label's own text, and no empty path.
@Suite struct BadgeSVGTests {
    /// Labels made of XML's five special characters, alone and together, and a label that
    /// would close the attribute and the title if they were not escaped.
    static let labels = [
        "&", "<", ">", "\"", "'", "R&D <b>\"x\"</b> 'y'", "\" onload=\"alert(1)", "</title><script>x</script>",
        "&amp; &lt;", "a]]>b",
    ]

    func svg(_ count: UInt64, of goal: UInt64? = nil, label: String?, theme: Theme = .light) throws -> Data {
        let count = try #require(TallyCount(exactly: count))
        let goal = try goal.map { try #require(TallyCount(exactly: $0)) }
        let badge = try Badge(count: count, goal: goal, label: label)
        let settings = BadgeSettings(format: .svg, label: label, goal: goal, appearance: Appearance(theme: theme))
        return Data(try Renderer.badge(badge, settings))
    }

    /// The title and `aria-label` of a badge with each label parse to "label: 1,234": the
    /// special characters are escaped in both places, so none breaks the document or leaves
    /// the attribute, and a reader hears the label as it was given.
    @Test(arguments: labels)
    func theAccessibleNameRoundTrips(_ label: String) throws {
        let root = try parsed(try svg(1234, label: label))
        #expect(root.name == "svg")
        #expect(root.first("title")?.text == "\(label): 1,234")
        #expect(root.attributes["aria-label"] == "\(label): 1,234")
        #expect(root.attributes["role"] == "img")
        // Nothing but the badge's own elements and attributes: no label text became markup.
        let names = Set(root.descendants.map(\.name))
        #expect(names.isSubset(of: ["title", "style", "path", "defs", "use"]), "\(names)")
        #expect(
            Set(root.attributes.keys) == [
                "xmlns", "id", "width", "height", "viewBox", "role", "aria-label", "data-count",
            ])
    }

    /// With a goal, and with the label in a dark or automatic theme, the same.
    @Test func theNameRoundTripsWithAGoalInEveryTheme() throws {
        for theme in [Theme.light, .dark, .auto] {
            let root = try parsed(try svg(6200, of: 10_000, label: "R&D <\"'>", theme: theme))
            #expect(root.first("title")?.text == "R&D <\"'>: 6,200 of 10,000 (62%)")
            #expect(root.attributes["aria-label"] == "R&D <\"'>: 6,200 of 10,000 (62%)")
        }
    }

    /// Every path of a badge has data, for any count, goal, label and theme: a mark with no
    /// segments (`999 --of 1001` wrote `<path class="remaining" d=""/>`) is never written.
    @Test func noBadgePathIsEmpty() async throws {
        let nearlyFull = try parsed(try svg(999, of: 1001, label: nil))
        #expect(nearlyFull.descendants.filter { $0.name == "path" }.allSatisfy { !($0.attributes["d"] ?? "").isEmpty })
        let labels: [String?] = [nil, "", " ", "downloads", "R&D", "é"]
        await propertyCheck(
            count: 300, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Int>.value(in: 0...3), Gen<Int>.value(in: 0...5)
        ) { digits, rawCount, rawGoal, goalKind, labelIndex in
            let power = (0..<digits).reduce(UInt64(1)) { value, _ in value * 10 }
            let goal: UInt64? = goalKind == 0 ? nil : max(1, min(rawGoal % power, UInt64(Int64.max)))
            // Below the goal most often, where its cells are drawn; at it and past it too.
            let count =
                switch (goal, goalKind) {
                case (let goal?, 1), (let goal?, 2): rawCount % goal
                case (let goal?, _): goal
                default: min(rawCount % power, UInt64(Int64.max))
                }
            let label = labels[labelIndex]
            let root = try parsed(try svg(count, of: goal, label: label?.isEmpty == true ? nil : label))
            for path in root.descendants where path.name == "path" {
                #expect(
                    !(path.attributes["d"] ?? "").isEmpty,
                    "count \(count) of \(String(describing: goal)), label \(String(describing: label))")
            }
        }
    }

    /// The tally itself, with a goal and every variant, has no empty path either.
    @Test func noRenderedPathIsEmptyWithAGoal() async throws {
        let variants: [RenderSettings] = [
            RenderSettings(), RenderSettings(detail: .full), RenderSettings(side: .longer(32)),
            RenderSettings(appearance: Appearance(theme: .dark, background: .paper), style: .ink, seed: 3),
            RenderSettings(fit: .content, caption: true),
        ]
        await propertyCheck(
            count: 200, input: Gen<Int>.value(in: 1...7), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Int>.value(in: 0...4)
        ) { digits, rawGoal, rawCount, variant in
            let power = (0..<digits).reduce(UInt64(1)) { value, _ in value * 10 }
            let goal = max(1, rawGoal % power)
            let count = rawCount % (goal * 2)
            var settings = variants[variant]
            settings.goal = try #require(TallyCount(exactly: goal))
            let root = try parsed(
                Data(try Renderer.render(try #require(TallyCount(exactly: count)), as: .svg, settings)))
            for path in root.descendants where path.name == "path" {
                #expect(!(path.attributes["d"] ?? "").isEmpty, "count \(count) of \(goal), variant \(variant)")
            }
        }
    }
}
