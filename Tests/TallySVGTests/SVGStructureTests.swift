import Foundation
import PropertyBased
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
import Testing

@testable import TallySVG

func render(_ count: UInt64, _ settings: RenderSettings = RenderSettings()) throws -> Data {
    Data(try Renderer.render(TallyCount(exactly: count)!, as: .svg, settings))
}

func parsed(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> XMLElement {
    switch XMLElement.parse(data) {
    case .success(let root): return root
    case .failure(let error):
        Issue.record(
            "not well-formed XML: \(error)\n\(String(decoding: data.prefix(400), as: UTF8.self))",
            sourceLocation: sourceLocation)
        throw error
    }
}

@Suite struct SVGStructureTests {
    /// SPEC §5: xmlns, viewBox, width, height, role, title, desc, data-count, a class per kind,
    /// and every mark's subpaths in a path of its class.
    private func checkStructure(_ count: UInt64, _ settings: RenderSettings) throws {
        let data = try render(count, settings)
        let root = try parsed(data)
        let (scene, viewport, _) = try Renderer.layout(TallyCount(exactly: count)!, .svg, settings)
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["role"] == "img")
        #expect(root.attributes["data-count"] == String(count))
        #expect(root.attributes["width"] == String(Int(viewport.width)))
        #expect(root.attributes["height"] == String(Int(viewport.height)))
        let viewBox = (root.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(viewBox.count == 4 && viewBox[2] > 0 && viewBox[3] > 0)
        #expect(root.first("title")?.text == (settings.label ?? Words.title(for: scene.count)))
        #expect(root.first("desc")?.text == Words.description(for: scene.count))
        let paths = root.descendants.filter { $0.name == "path" }
        // A path holds one mark or a run of marks of one class, each mark its own subpaths: the
        // subpaths of each kind in the SVG are those of the scene's marks of that kind.
        #expect(paths.count <= scene.marks.count, "count \(count)")
        for kind in MarkKind.allCases {
            let inSVG = paths.filter {
                ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(kind.rawValue))
            }.reduce(0) { $0 + ($1.attributes["d"] ?? "").filter { $0 == "m" || $0 == "M" }.count }
            var inScene = 0
            for mark in scene.marks where mark.kind == kind {
                mark.forEachPathElement { if case .move = $0 { inScene += 1 } }
            }
            #expect(inSVG == inScene, "\(kind) of \(count)")
        }
        #expect(paths.allSatisfy { !($0.attributes["d"] ?? "").isEmpty })
    }

    @Test func thousandsOfCountsAreWellFormed() throws {
        for count in sanitizerSample(Array(UInt64(0)...2_600), every: 10) {
            try checkStructure(count, RenderSettings(detail: .full))
        }
        for count in sanitizerSample(Array(stride(from: UInt64(2_600), through: 10_001, by: 7)), every: 10) {
            try checkStructure(count, RenderSettings())
        }
    }

    @Test func largeCountsAndEveryVariantAreWellFormed() async {
        let variants: [RenderSettings] = [
            RenderSettings(), RenderSettings(detail: .full),
            RenderSettings(appearance: Appearance(theme: .dark, background: .paper), style: .ink, seed: 9),
            RenderSettings(appearance: Appearance(theme: .auto, background: .paper), fit: .content, animation: .all),
            RenderSettings(side: .width(1000), padding: 12, label: "Days <sober> & \"counting\""),
        ]
        await propertyCheck(
            count: 200, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<Int>.value(in: 0...4)
        ) { digits, raw, variant in
            let count = min(raw % (0..<digits).reduce(UInt64(1)) { value, _ in value * 10 }, UInt64(Int64.max))
            try checkStructure(count, variants[variant])
        }
    }

    /// The style rules are ordered by kind as declared (SPEC §5: the same bytes every run); the
    /// writer reads that order from `ordinal`, which must be the declaration's.
    @Test func kindOrdinalsFollowTheDeclaration() {
        for (index, kind) in MarkKind.allCases.enumerated() { #expect(kind.ordinal == index, "\(kind)") }
    }

    @Test func sameArgumentsSameBytes() throws {
        let settings = RenderSettings(appearance: Appearance(theme: .auto), style: .ink, seed: 42, animation: .all)
        #expect(try render(12_345, settings) == render(12_345, settings))
    }

    @Test func themesCarryTheirPalettes() throws {
        let light = String(
            decoding: try render(7, RenderSettings(appearance: Appearance(theme: .light))), as: UTF8.self)
        let dark = String(decoding: try render(7, RenderSettings(appearance: Appearance(theme: .dark))), as: UTF8.self)
        // Auto over its paper carries the full palettes (on a transparent background, the mid
        // tones of SPEC §3: `SVGThemeTests`).
        let auto = String(
            decoding: try render(7, RenderSettings(appearance: Appearance(theme: .auto, background: .paper))),
            as: UTF8.self)
        #expect(light.contains("#262629") && !light.contains("#ebebed"))
        #expect(dark.contains("#ebebed") && !dark.contains("#262629"))
        #expect(
            auto.contains("#262629") && auto.contains("@media (prefers-color-scheme:dark){") && auto.contains("#ebebed")
        )
        // The light palette comes first, so renderers that ignore media queries get it.
        let lightAt = try #require(auto.range(of: "#262629"))
        let darkAt = try #require(auto.range(of: "#ebebed"))
        #expect(lightAt.lowerBound < darkAt.lowerBound)
    }

    @Test func colourOverridesAreNormalised() throws {
        let settings = RenderSettings(
            appearance: Appearance(
                overrides: [.c1: try RGBA(parsing: "RebeccaPurple"), .accent: try RGBA(parsing: "#abc")],
                background: try Background(parsing: "#11223380")))
        let text = String(decoding: try render(7, settings), as: UTF8.self)
        #expect(text.contains("stroke:#663399"))
        #expect(text.contains("stroke:#aabbcc"))
        #expect(text.contains("fill:#11223380"))
    }

    @Test func paddingAndScaleSetThePixelSizeNotTheViewBoxUnits() throws {
        let root = try parsed(try render(25, RenderSettings(side: .longer(100), scale: 2, padding: 10)))
        #expect(root.attributes["width"] == "200" && root.attributes["height"] == "200")
        let viewBox = (root.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        try #require(viewBox.count == 4)
        // 30 layout units fill 160 px; 20 px of padding on each side is 3.75 units.
        #expect(abs(viewBox[0] + 3.75) < 0.01 && abs(viewBox[2] - 37.5) < 0.01)
    }

    /// SPEC §2: content (the default) shows the cells that hold the count and fills the image;
    /// frame shows the whole frame, the same size for every count of it; --frame pins a frame.
    @Test func fitContentFrameAndPinnedFrames() throws {
        func size(_ root: XMLElement) -> (Int, Int) {
            (Int(root.attributes["width"]!)!, Int(root.attributes["height"]!)!)
        }
        let content = try parsed(try render(137))
        let frame = try parsed(try render(137, RenderSettings(fit: .frame)))
        // Two squares of a row (183 × 77.5) against the whole row (1,027 × 77.5).
        #expect(size(content).0 == 256 && size(content).1 > 100)
        #expect(size(frame).0 == 256 && size(frame).1 < 40)
        // Every count of one frame gives one size under --fit frame …
        #expect(size(try parsed(try render(101, RenderSettings(fit: .frame)))) == size(frame))
        #expect(size(try parsed(try render(999, RenderSettings(fit: .frame)))) == size(frame))
        // … and under a pinned frame, counts of smaller frames too.
        let pinned = RenderSettings(frame: .tenThousandBlock)
        let sizes = try [0, 7, 26, 137, 1_234, 10_000].map { size(try parsed(try render($0, pinned))) }
        #expect(Set(sizes.map { "\($0)" }).count == 1, "\(sizes)")
    }

    /// SPEC §5: the viewBox and every number in the SVG stay below 10⁶ in magnitude for every count.
    @Test func numbersStayBelowAMillion() async {
        let variants: [RenderSettings] = [
            RenderSettings(), RenderSettings(detail: .full), RenderSettings(fit: .frame),
            RenderSettings(side: .longer(4096), style: .ink, seed: 2),
            RenderSettings(side: .longer(300), frame: .largest),
        ]
        await propertyCheck(
            count: 200, input: Gen<Int>.value(in: 10...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<Int>.value(in: 0...4)
        ) { digits, raw, variant in
            let count = min(raw % (0..<digits).reduce(UInt64(1)) { value, _ in value * 10 }, UInt64(Int64.max))
            let text = String(decoding: try render(count, variants[variant]), as: UTF8.self)
            // Not coordinates: the count itself, the unit classes (`u1000000`) and the ids' digests
            // (`tally-3f9a0c41b2d7`, SPEC §2, "Inline-safe SVG").
            let body = text.replacingOccurrences(of: "data-count=\"\(count)\"", with: "")
                .replacingOccurrences(of: "u[0-9]+", with: "", options: .regularExpression)
                .replacingOccurrences(of: "tally-[0-9a-f]{12}", with: "", options: .regularExpression)
            let numbers = body.split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap { Double($0) }
            let largest = numbers.map(abs).max() ?? 0
            #expect(largest < 1e6, "count \(count), variant \(variant): \(largest)")
        }
    }

    @Test func theEmptyTallyIsAnEmptyFrame() throws {
        let root = try parsed(try render(0))
        #expect(root.descendants.filter { $0.name == "path" }.isEmpty)
        #expect(root.first("title")?.text == "No tally marks")
        #expect(root.attributes["width"] == "256")
    }

    @Test func numbersAreFixedPrecisionWithDots() throws {
        let root = try parsed(try render(UInt64(Int64.max), RenderSettings(detail: .full)))
        for path in root.descendants where path.name == "path" {
            let d = path.attributes["d"] ?? ""
            // Relative steps (SPEC §5): `m`, `h`, `v`, `l`, `q`, `z`, never an exponent or a comma.
            #expect(d.allSatisfy { "mlhvqz0123456789.- ".contains($0) }, "\(d)")
        }
        let small = String(decoding: try render(24, RenderSettings(style: .ink)), as: UTF8.self)
        let decimals = small.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { token -> Int? in
            guard let dot = token.firstIndex(of: ".") else { return nil }
            return token.distance(from: dot, to: token.endIndex) - 1
        }
        #expect(try #require(decimals.max()) <= 3)
    }
}
