import FuzzDriver
import Tally

/// Counts and frame names as the command line reads them: any bytes, never a crash; a parsed
/// count is in range and prints back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    if let count = try? TallyCount(parsing: text) {
        precondition(count.value <= UInt64(Int64.max))
        precondition((try? TallyCount(parsing: String(count.value))) == count)
    }
    if let level = try? UnitLevel(parsing: text) { precondition(level >= .smallestFrame) }
    return 0
}

@_cdecl("FuzzCount_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
