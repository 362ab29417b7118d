import TallyGeometry

/// Counts and frame names as the command line reads them: any bytes, never a crash; a parsed
/// count is in range and prints back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    if case .success(let count) = TallyCount.parse(text) {
        precondition(count.value <= UInt64(Int64.max))
        precondition(TallyCount.parse(String(count.value)) == .success(count))
    }
    if let level = UnitLevel(frameName: text) { precondition(level >= .smallestFrame) }
    return 0
}

/// libFuzzer's driver: SwiftPM links an executable's entry as `<Target>_main`, so the target
/// provides it and hands over to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> CInt

@_cdecl("FuzzCount_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
}
