#if Server
@testable import TallyServer
import Testing

/// SPEC §6: the answers to requests the router never sees depend on what the raw lines said
/// (the request line's length for 414 against 431, its method for 501, its version for 505),
/// and HTTP/1.2 to 1.9 is answered as 1.1. A client may write a request in any pieces: read in
/// pieces, the lines say what they say read at once, and a minor version is rewritten when its
/// digit arrives with its line's end.
@Suite struct RequestLinesTests {
    static let requests: [String] = [
        "GET /1234.svg HTTP/1.1\r\nHost: a\r\nUser-Agent: x\r\n\r\n",
        "GET /healthz HTTP/1.5\r\nHost: a\r\n\r\n",
        "get / HTTP/1.1\r\nHost: a\r\n\r\n",
        "BREW /pot HTTP/2.0\r\n\r\n",
        "GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.1\r\nX-Long: " + String(repeating: "b", count: 300) + "\r\n\r\n",
        "\r\nGET / HTTP/1.9\n\n",
        "garbage line\r\nGET  /two-spaces HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\nPOST /x HTTP/1.3\r\nHost: a\r\n\r\n",
        "M" + String(repeating: "E", count: 100) + " / HTTP/1.1\r\n\r\n",
    ]

    /// The lines' findings after reading `pieces` in turn, and the bytes as passed on.
    private func read(_ pieces: [ArraySlice<UInt8>]) -> (length: Int, method: String?, version: String?, bytes: [UInt8])
    {
        var lines = RequestLineWatcher.Lines()
        var passed: [UInt8] = []
        for piece in pieces {
            var bytes = Array(piece)
            let rewrites = bytes.withUnsafeBytes { lines.read($0) }
            for offset in rewrites { bytes[offset] = UInt8(ascii: "1") }
            passed += bytes
        }
        return (lines.requestLineLength, lines.method, lines.version, passed)
    }

    @Test(arguments: requests)
    func linesReadInPiecesSayWhatTheySayReadAtOnce(_ request: String) {
        let bytes = Array(request.utf8)
        let whole = read([bytes[...]])
        for cut in 0...bytes.count {
            let split = read([bytes[..<cut], bytes[cut...]])
            #expect(split.length == whole.length, "cut at \(cut)")
            #expect(split.method == whole.method, "cut at \(cut)")
            #expect(split.version == whole.version, "cut at \(cut)")
        }
        let byteByByte = read(bytes.indices.map { bytes[$0...$0] })
        #expect(byteByByte.length == whole.length && byteByByte.method == whole.method)
        #expect(byteByByte.version == whole.version)
    }

    @Test func minorVersionsAreRewrittenAndNothingElse() {
        let request = Array("GET /healthz HTTP/1.5\r\nHost: a\r\n\r\nGET / HTTP/1.9\r\n\r\n".utf8)
        #expect(
            read([request[...]]).bytes == Array("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
        let plain = Array("GET /healthz HTTP/1.1\r\nHost: HTTP/1.5\r\n\r\n".utf8)
        #expect(read([plain[...]]).bytes == plain)
        let whole = read([Array("GET / HTTP/1.1\r\n".utf8)[...]])
        #expect(whole.method == "GET" && whole.version == "HTTP/1.1" && whole.length == 15)
        let long = read([Array(("GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\n").utf8)[...]])
        #expect(long.length == 315)
    }
}
#endif
