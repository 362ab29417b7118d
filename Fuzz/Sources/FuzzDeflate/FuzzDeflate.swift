import FuzzDriver
@_spi(Fuzzing) import TallyRender

/// PNG image data (SPEC §5) through tally's own DEFLATE encoder: any bytes, at any row length
/// and pixel size, come back exactly when zlib inflates the stream, and nothing crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    precondition(Renderer.fuzzDeflate(bytes), "zlib did not inflate the stream back to the data")
    return 0
}

@_cdecl("FuzzDeflate_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
