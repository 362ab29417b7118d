#if Cairo
import CCairo
import Foundation
import Testing
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
@testable import TallyCairo

/// Any label reaches PDF and PNG metadata; characters
/// PDF refuses and control characters become U+FFFD.
@Suite struct MetadataTextTests {
    /// Labels as scalar values: Swift refuses some noncharacters in string literals.
    @Test(
        arguments: [[0x61, 0xFFFE, 0x62], [0xFFFF], [0x78, 0xFDD0], [0x1FFFE], [0x61, 0x85, 0x62, 0x07, 0x63, 0x7F]]
            as [[UInt32]])
    func everyLabelIsWritten(_ scalars: [UInt32]) throws {
        var label = ""
        for value in scalars { label.unicodeScalars.append(try #require(Unicode.Scalar(value))) }
        for format in [OutputFormat.pdf, .png] {
            let settings = RenderSettings(label: label)
            let bytes = try Renderer.render(try #require(TallyCount(exactly: 5)), as: format, settings)
            #expect(!bytes.isEmpty, "\(format)")
            if format == .png {
                // No C0 (but tab and newline) or C1 control byte in the text chunks' text.
                let text = String(decoding: bytes, as: UTF8.self)
                let range = try #require(text.range(of: "Title"))
                let chunk = text[range.upperBound...].prefix(40).unicodeScalars
                #expect(!chunk.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x07 || $0.value == 0x7F })
            }
        }
    }
}
#endif
