import TallyGeometry
import TallyOptions
import TallyRender
import Testing

/// The proportions the render options build reach the scene the renderer draws: one value,
/// from `RenderOptions` through `RenderSettings` to every mark (SPEC §2).
@Suite struct ProportionsRenderTests {
    /// Proportions other than SPEC §2's in every field: the standard's doubled, which a Double
    /// holds exactly, so every place in its scene is the standard's doubled and a JSON scene,
    /// written to three decimals, holds it as it holds the standard's (`SceneJSONTests`). Made by
    /// `Proportions.scaled(by:)`, which lists every field, so a new field is other here too.
    static let other = Proportions.standard.scaled(by: 2)

    @Test func theOptionsDrawWithTheStandardProportions() throws {
        for format in OutputFormat.allCases {
            #expect(try RenderOptions([:]).settings(format: format).proportions == .standard)
        }
        #expect(RenderSettings().proportions == .standard)
    }

    /// The renderer draws the scene of the settings' proportions: the geometry itself (a JSON
    /// scene without a size) is that scene, mark for mark, goal and all; at a size, the plan's
    /// frame is the value's.
    @Test(arguments: [UInt64(0), 7, 25, 137, 1_234, 9_999, 10_000, 123_456])
    func theRendererDrawsTheSettingsProportions(_ value: UInt64) throws {
        let count = try #require(TallyCount(exactly: value))
        var settings = RenderSettings(goal: value < 50_000 ? 50_000 : nil)
        settings.proportions = Self.other
        let scene = try Renderer.layout(count, .json, settings).scene
        #expect(scene == TallyScene(count: count, goal: settings.goal, proportions: Self.other))
        settings.side = .longer(512)
        let plan = try Renderer.plan(count, .svg, settings)
        #expect(plan.canvas == Canvas(level: plan.canvas.level, Self.other))
        #expect(plan.canvas != Canvas(level: plan.canvas.level))
    }
}
