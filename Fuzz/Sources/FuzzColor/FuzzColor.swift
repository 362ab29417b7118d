import FuzzDriver
import Tally

/// Colours (`--ink`, `--background`): any bytes, never a crash; an accepted colour is written
/// as CSS that parses back to itself, so nothing the user typed is passed through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    if let color = try? RGBA(parsing: text) {
        precondition(color.css.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == "#" || $0.isLetter) })
        if !color.isClear { precondition((try? RGBA(parsing: color.css)) == color) }
    }
    _ = try? Background(parsing: text)
    return 0
}

@_cdecl("FuzzColor_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
