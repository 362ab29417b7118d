import FuzzDriver
@_spi(Fuzzing) import TallyCommands

/// Count lists (`@file`, standard input): any bytes, never a crash, never more counts than a
/// batch allows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    if let total = fuzzCountList(bytes) { precondition(total <= 1_000_000) }
    return 0
}

@_cdecl("FuzzCountList_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
