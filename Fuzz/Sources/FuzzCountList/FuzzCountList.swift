@_spi(Fuzzing) import TallyCommands

/// Count lists (`@file`, standard input): any bytes, never a crash, never more counts than a
/// batch allows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    if let total = fuzzCountList(bytes) { precondition(total <= 1_000_000) }
    return 0
}

/// libFuzzer's driver: SwiftPM links an executable's entry as `<Target>_main`, so the target
/// provides it and hands over to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> CInt

@_cdecl("FuzzCountList_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
}
