import Foundation
import FuzzDriver
import Tally
@_spi(Fuzzing) import TallyRender

/// TallyScene building and SVG for arbitrary counts and sizes: never a crash, pens at least a pixel,
/// and every SVG number below 10⁶ (SPEC §2 and §5).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard bytes.count >= 11 else { return 0 }
    var raw: UInt64 = 0
    for byte in bytes.prefix(8) { raw = raw << 8 | UInt64(byte) }
    let count = TallyCount(exactly: raw & UInt64(Int64.max))!
    let side = 1 + Double(UInt16(bytes[8]) << 8 | UInt16(bytes[9])) / 16  // 1 … 4,097 px
    let options = bytes[10]
    let settings = RenderSettings(
        side: options & 1 == 0 ? .longer(side) : .width(side),
        style: options & 2 == 0 ? .clean : .ink, seed: UInt64(options),
        fit: options & 4 == 0 ? .content : .frame,
        detail: options & 8 == 0 ? nil : .full)
    // A size over the limits is refused, not a finding.
    guard let (scene, viewport) = try? Renderer.fuzzLayout(count, .svg, settings) else { return 0 }
    for mark in scene.marks where !mark.kind.isFilled {
        precondition(mark.width * viewport.pixelsPerUnit >= 0.999_999, "a pen under a pixel")
    }
    let svg = String(decoding: try! Renderer.render(count, as: .svg, settings), as: UTF8.self)
        .replacingOccurrences(of: "data-count=\"\(count.value)\"", with: "")
    var number = ""
    for character in svg + " " {
        if character.isNumber || character == "." || character == "-" {
            number.append(character)
            continue
        }
        if let value = Double(number), !number.isEmpty {
            precondition(
                abs(value) < 1e6 || number.allSatisfy(\.isNumber) && svg.contains("u\(number)"), "SVG number \(number)")
        }
        number = ""
    }
    return 0
}

@_cdecl("FuzzScene_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
