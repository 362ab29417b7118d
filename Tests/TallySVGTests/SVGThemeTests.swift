import Foundation
import PropertyBased
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

@testable import TallySVG

@Suite struct SVGThemeTests {
    /// Every theme draws the same pens; only colours change.
    @Test(arguments: [Theme.light, .dark, .auto])
    func everyThemeSetsThePens(_ theme: Theme) throws {
        let text = String(
            decoding: try render(10_000, RenderSettings(appearance: Appearance(theme: theme))), as: UTF8.self)
        for selector in [".box{", ".line{", ".diagonal{"] {
            let parts = text.components(separatedBy: selector)
            try #require(parts.count > 1, "\(theme): no \(selector) rule")
            let rule = parts[1].prefix { $0 != "}" }
            #expect(rule.contains("stroke-width:"), "\(theme): \(selector)\(rule)")
        }
    }
}
