import Foundation
import FuzzDriver
import Tally

/// Labels (`--label`): any text reaches the SVG as one escaped title and the PNG and PDF as
/// metadata, never as markup and never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let label = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    let count = TallyCount(exactly: UInt64(size % 300))!
    for format in [OutputFormat.svg, .png, .pdf] {
        let settings = RenderSettings(side: .longer(24), label: label)
        guard let bytes = try? Renderer.render(count, as: format, settings) else {
            preconditionFailure("\(format) refused a label")
        }
        if format == .svg {
            let text = String(decoding: bytes, as: UTF8.self)
            precondition(
                text.components(separatedBy: "<title").count == 2 && text.components(separatedBy: "</title>").count == 2
            )
            precondition(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        }
    }
    return 0
}

@_cdecl("FuzzLabel_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
