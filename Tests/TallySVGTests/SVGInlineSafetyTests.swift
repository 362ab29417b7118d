import Foundation
import PropertyBased
import TallyBadge
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

@testable import TallySVG

/// What one SVG names and what it points at, read back with the XML parser: the ids, the
/// keyframes (whose names are global to a page, as ids are), and every reference and style
/// selector that must land inside the image (SPEC §2, "Inline-safe SVG").
struct InlineNames {
    /// Every `id` attribute, in document order.
    var ids: [String] = []
    /// Every `@keyframes` name.
    var keyframes: [String] = []
    /// `aria-labelledby` tokens, `href="#…"` and `url(#…)` targets.
    var references: [String] = []
    /// The `#id` of every style selector.
    var selectorIDs: [String] = []
    /// Selectors that do not start with an id, so they could select another image's elements.
    var unscopedSelectors: [String] = []
    /// The names `animation` and `animation-name` ask for.
    var animationNames: [String] = []

    /// Everything that must not appear in two images of one page.
    var pageWideNames: [String] { ids + keyframes }

    init(_ root: XMLElement) {
        for element in [root] + root.descendants {
            if let id = element.attributes["id"] { ids.append(id) }
            if let labels = element.attributes["aria-labelledby"] {
                references += labels.split(whereSeparator: \.isWhitespace).map(String.init)
            }
            for name in ["href", "xlink:href"] {
                if let target = element.attributes[name], target.hasPrefix("#") {
                    references.append(String(target.dropFirst()))
                }
            }
            for value in element.attributes.values { references += Self.urlTargets(value) }
            if element.name == "style" { readStyle(element.text) }
        }
    }

    /// The ids of `url(#…)` in a value.
    static func urlTargets(_ text: String) -> [String] {
        text.components(separatedBy: "url(#").dropFirst().map { String($0.prefix { $0 != ")" }) }
    }

    /// The id that starts at `text`'s start, after its `#`.
    private static func leadingID(_ text: Substring) -> String {
        String(text.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    /// Reads a style sheet's preludes (the text before each `{` since the last brace) and its
    /// declarations (the text before each `}`): selectors, at-rules and keyframe steps.
    private mutating func readStyle(_ css: String) {
        var pending = ""
        for character in css {
            switch character {
            case "{":
                let prelude = pending.trimmingCharacters(in: .whitespaces)
                pending = ""
                if prelude.hasPrefix("@keyframes") {
                    keyframes.append(String(prelude.dropFirst("@keyframes".count)).trimmingCharacters(in: .whitespaces))
                } else if prelude.hasPrefix("@") || prelude == "from" || prelude == "to" || prelude.hasSuffix("%") {
                    continue
                } else {
                    for selector in prelude.split(separator: ",") {
                        let selector = selector.trimmingCharacters(in: .whitespaces)
                        if selector.hasPrefix("#") {
                            selectorIDs.append(Self.leadingID(Substring(selector)))
                        } else {
                            unscopedSelectors.append(selector)
                        }
                    }
                }
            case "}":
                for declaration in pending.split(separator: ";") {
                    let parts = declaration.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2 else { continue }
                    let property = parts[0].trimmingCharacters(in: .whitespaces)
                    if property == "animation" || property == "animation-name" {
                        animationNames += parts[1].split(separator: " ").prefix(1).map(String.init)
                    }
                }
                references += Self.urlTargets(pending)
                pending = ""
            default:
                pending.append(character)
            }
        }
    }
}

/// SPEC §2, "Inline-safe SVG": many images share one HTML page. Every id of an image is its
/// own and the same on every run, its styles select only its own elements, and its references
/// resolve inside it.
@Suite struct SVGInlineSafetyTests {
    /// A named SVG for the checks: tallies, badges and gallery sheets.
    struct Image: Sendable {
        let name: String
        let make: @Sendable () throws -> [UInt8]
    }

    static func tally(_ count: UInt64, _ settings: RenderSettings = RenderSettings()) -> Image {
        Image(name: "render \(count) \(settings)") {
            try Renderer.render(try #require(TallyCount(exactly: count)), as: .svg, settings)
        }
    }

    static func badge(_ count: UInt64, theme: Theme, label: String? = nil, goal: UInt64? = nil) -> Image {
        Image(name: "badge \(count) \(theme) \(label ?? "") \(goal.map(String.init) ?? "")") {
            let badge = try Badge(
                count: try #require(TallyCount(exactly: count)), goal: goal.flatMap { TallyCount(exactly: $0) },
                label: label)
            return try Renderer.badge(badge, BadgeSettings(appearance: Appearance(theme: theme)))
        }
    }

    static func gallery(_ counts: [UInt64], _ settings: RenderSettings = RenderSettings()) -> Image {
        Image(name: "gallery \(counts)") {
            try Gallery.render(counts.map { TallyCount(exactly: $0)! }, as: .svg, settings)
        }
    }

    static let light = RenderSettings(appearance: Appearance(theme: .light))
    static let dark = RenderSettings(appearance: Appearance(theme: .dark, background: .paper))

    /// The five of the acceptance list (pictures and badges in both themes, Int64.max) and more:
    /// counts at every level, animation (all, and since a count), ink with two seeds (which
    /// differ only in their paths), a label, a goal, a caption and galleries, one of them
    /// holding one count twice.
    static let images: [Image] = [
        tally(100, light), tally(100, dark), badge(1_234, theme: .light), badge(1_234, theme: .dark),
        tally(UInt64(Int64.max)),
        tally(0), tally(1), tally(25), tally(100), tally(137), tally(9_999),
        tally(137, RenderSettings(animation: .all)),
        tally(137, RenderSettings(animation: .since(TallyCount(exactly: 120)!))),
        tally(137, RenderSettings(appearance: Appearance(theme: .auto, background: .paper), animation: .all)),
        tally(99, RenderSettings(style: .ink, seed: 1)), tally(99, RenderSettings(style: .ink, seed: 2)),
        tally(137, RenderSettings(label: "Days sober")),
        tally(6_200, RenderSettings(goal: TallyCount(exactly: 10_000))),
        tally(1_234, RenderSettings(caption: true)), tally(137, RenderSettings(side: .longer(64))),
        badge(7, theme: .auto, label: "streak"), badge(6_200, theme: .auto, goal: 10_000),
        gallery([1, 5, 25, 100]), gallery([5, 5, 137]), gallery([5, 5, 137], dark),
    ]

    /// Checks one image on its own: its ids are distinct, every reference and selector finds
    /// one of them, every rule is scoped, and every animation names its own keyframes.
    static func checkAlone(_ name: String, _ bytes: [UInt8]) throws -> InlineNames {
        let names = InlineNames(try parsed(Data(bytes)))
        let ids = Set(names.ids)
        #expect(ids.count == names.ids.count, "\(name): an id twice in \(names.ids)")
        #expect(!names.ids.isEmpty, "\(name): no id")
        #expect(Set(names.references).isSubset(of: ids), "\(name): \(names.references) outside \(ids)")
        #expect(Set(names.selectorIDs).isSubset(of: ids), "\(name): selectors \(Set(names.selectorIDs)) outside \(ids)")
        #expect(names.unscopedSelectors.isEmpty, "\(name): unscoped \(names.unscopedSelectors)")
        #expect(
            Set(names.animationNames).isSubset(of: Set(names.keyframes)),
            "\(name): animations \(names.animationNames), keyframes \(names.keyframes)")
        return names
    }

    @Test func everyImageIsSelfContainedAndNoNameIsShared() throws {
        var owner: [String: String] = [:]
        var seen: Set<[UInt8]> = []
        for image in Self.images {
            let bytes = try image.make()
            #expect(try image.make() == bytes, "\(image.name): two runs differ")
            try #require(seen.insert(bytes).inserted, "\(image.name) is another image's bytes: the list is wrong")
            let names = try Self.checkAlone(image.name, bytes)
            for name in names.pageWideNames {
                #expect(
                    owner[name] == nil || owner[name] == image.name, "\(name) in \(owner[name] ?? "") and \(image.name)"
                )
                owner[name] = image.name
            }
        }
    }

    /// The root's default id is the kind of image and a digest of it, and the animation's
    /// keyframes are named from it.
    @Test func defaultIDsAreAPrefixAndADigest() throws {
        let animated = try Self.tally(137, RenderSettings(animation: .all)).make()
        let root = try parsed(Data(animated))
        let id = try #require(root.attributes["id"])
        #expect(id.hasPrefix("tally-") && id.count == "tally-".count + 12, "\(id)")
        #expect(id.dropFirst("tally-".count).allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)")
        #expect(InlineNames(root).keyframes == ["\(id)-draw"])
        let badge = try parsed(Data(try Self.badge(5, theme: .dark).make()))
        #expect(badge.attributes["id"]?.hasPrefix("badge-") == true)
        let sheet = try parsed(Data(try Self.gallery([5, 5]).make()))
        let sheetID = try #require(sheet.attributes["id"])
        #expect(sheetID.hasPrefix("gallery-"))
        let tiles = sheet.children.filter { $0.name == "svg" }.compactMap { $0.attributes["id"] }
        #expect(tiles == ["\(sheetID)-1", "\(sheetID)-2"])
    }

    /// A caller's explicit id is kept as it is: only the default changed.
    @Test func anExplicitIDIsKept() throws {
        let (scene, viewport, _) = try Renderer.layout(try #require(TallyCount(exactly: 137)), .svg, RenderSettings())
        let svg = SVGRenderer.render(scene, viewport: viewport, options: SVGOptions(id: "chart"))
        let names = try Self.checkAlone("explicit", svg)
        #expect(names.ids == ["chart", "chart-title", "chart-desc"])
        #expect(Set(names.selectorIDs) == ["chart"])
    }

    /// Any two tallies that differ get different ids, and the same tally the same bytes, over
    /// random counts, themes, styles, seeds and animation.
    @Test func randomTalliesNeverShareANameWithAnother() async {
        let themes: [Theme] = [.light, .dark, .auto]
        await propertyCheck(
            count: 60, input: Gen<UInt64>.value(in: 0...UInt64(Int64.max)),
            Gen<UInt64>.value(in: 0...UInt64(Int64.max)),
            Gen<Int>.value(in: 0..<3), Gen<Bool>.bool
        ) { first, second, theme, animate in
            let settings = RenderSettings(
                appearance: Appearance(theme: themes[theme]), style: animate ? .ink : .clean, seed: first % 7,
                animation: animate ? .all : .none)
            let one = try Self.tally(first % 10_000_000, settings).make()
            let other = try Self.tally(second, settings).make()
            let oneNames = try Self.checkAlone("render \(first % 10_000_000)", one)
            let otherNames = try Self.checkAlone("render \(second)", other)
            if one != other {
                #expect(Set(oneNames.pageWideNames).isDisjoint(with: otherNames.pageWideNames))
            }
            #expect(try Self.tally(second, settings).make() == other)
        }
    }
}
