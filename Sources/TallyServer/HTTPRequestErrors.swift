#if Server
import NIOCore
import NIOHTTP1
import TallyGeometry
import TallyOptions
import TallyPOSIX

/// What NIO's HTTP/1 parser (llhttp) cannot say itself: which line of a request broke a limit,
/// what version and method the request line gave, and HTTP/1.2 to 1.9 read as 1.1.
///
/// The parser reports one error for a request target and for header fields over its limit
/// (`headerOverflow`), one for every version it refuses (`invalidVersion`: llhttp refuses 1.2,
/// NIO every major version but 1), and one for an unknown method and for garbage
/// (`invalidMethod`). This handler sits before the parser and watches the raw lines, so the
/// answer can be 414 or 431, 505 or 400, 501 or 400 (RFC 9110 §15.5.15, §15.6.6, §15.6.2,
/// RFC 6585 §5).
///
/// A line shaped like a request line (`token SP target SP HTTP/1.d`, with d from 2 to 9) has its
/// minor version rewritten to 1 before the parser sees it (RFC 9112 §2.3: a server treats a
/// higher minor version as the highest it speaks). The digit is rewritten when it arrives in
/// the same read as the end of its line, as it does from every client that writes a request
/// at once; when a client's write splits the two, the request gets 505.
///
/// It runs on every read of every connection, so it reads as little as it can: the first word
/// of each line a byte at a time (a method or a field name, a few bytes), and the rest of the
/// line with `memchr` (the line's end; in a request line, its spaces). It keeps bytes, never
/// strings: `method` and `version` are made only when an error is answered. Priced in
/// BENCHMARKS.md ("The request-line watcher").
final class RequestLineWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Bytes of the latest request line (the one being read, or the last one read).
    var requestLineLength: Int { lines.requestLineLength }
    /// The latest request line's method and version, as given; nil until the line has them.
    var method: String? { lines.method }
    var version: String? { lines.version }

    private var lines = Lines()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        var read = Lines()
        swap(&read, &lines)
        let rewrites = buffer.withUnsafeReadableBytes { read.read($0) }
        swap(&read, &lines)
        for offset in rewrites { buffer.setInteger(UInt8(ascii: "1"), at: buffer.readerIndex + offset) }
        context.fireChannelRead(wrapInboundOut(buffer))
    }

    /// What the lines read so far say, kept in one value so that a read works on a local
    /// copy (`channelRead`): as the class's own properties, every change was an exclusivity
    /// check.
    struct Lines {
        /// Bytes of the latest request line (the one being read, or the last one read).
        var requestLineLength = 0
        /// The latest request line's method and version, as given; nil until the line has them.
        var method: String? { hasMethod ? String(decoding: methodBytes, as: UTF8.self) : nil }
        var version: String? { hasVersion ? String(decoding: versionBytes, as: UTF8.self) : nil }
        var hasMethod = false
        var hasVersion = false
        var methodBytes: [UInt8] = []
        var versionBytes: [UInt8] = []

        /// The line being read: its length, whether it is still a token (a method or a field
        /// name), whether it is a request line (a token, then a space), its spaces, and the bytes
        /// since its last space (at most `versionLimit` + 1).
        var lineLength = 0
        var inFirstToken = true
        var isRequestLine = false
        var spaces = 0
        var firstToken: [UInt8] = []
        var lastWord: [UInt8] = []
        static let versionLimit = 16

        /// Reads one buffer's lines; returns the offsets of the minor version digits to rewrite in
        /// it (none, on every request but HTTP/1.2 to 1.9).
        mutating func read(_ bytes: UnsafeRawBufferPointer) -> [Int] {
            guard let base = bytes.baseAddress else { return [] }
            let count = bytes.count
            var rewrites: [Int] = []
            var at = 0
            while at < count {
                if inFirstToken {
                    // The line's first word (a method, a field name), then the byte that ends it.
                    var end = at
                    while end < count, RequestLineWatcher.isTokenByte(bytes[end]) { end += 1 }
                    if end > at { takeFirstToken(bytes, from: at, to: end) }
                    at = end
                    guard at < count else { break }
                    let byte = bytes[at]
                    if byte == UInt8(ascii: "\n") {
                        if let digit = endLine(), at - digit >= 0 { rewrites.append(at - digit) }
                    } else {
                        endFirstToken(with: byte)
                    }
                    at += 1
                    continue
                }
                // The rest of the line, up to its line feed or the buffer's end.
                let newline =
                    memchr(base + at, Int32(UInt8(ascii: "\n")), count - at).map { base.distance(to: $0) } ?? count
                if isRequestLine && newline > at { takeRequestLine(bytes, from: at, to: newline) }
                if newline < count, let digit = endLine(), newline - digit >= 0 { rewrites.append(newline - digit) }
                at = newline + 1
            }
            return rewrites
        }

        /// Token bytes `start..<end` of a line's first word (a method, a field name); the first 64
        /// are kept.
        mutating func takeFirstToken(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
            lineLength += end - start
            let room = 64 - firstToken.count
            if room > 0 { firstToken.append(contentsOf: bytes[start..<min(end, start + room)]) }
        }

        /// The byte after a line's first word (not a token byte, not a line feed): a space makes
        /// the line a request line.
        mutating func endFirstToken(with byte: UInt8) {
            lineLength += 1
            inFirstToken = false
            isRequestLine = byte == UInt8(ascii: " ") && !firstToken.isEmpty
            if isRequestLine || (byte != UInt8(ascii: ":") && byte != UInt8(ascii: "\r")) {
                // A request line, or a line that is neither a request line, a field nor the
                // empty line: what the parser fails on next is this line.
                hasMethod = isRequestLine
                if isRequestLine { swap(&methodBytes, &firstToken) }
                hasVersion = false
                requestLineLength = 0
            }
            if isRequestLine {
                requestLineLength = lineLength
                spaces = 1
                lastWord.removeAll(keepingCapacity: true)
            }
        }

        /// Bytes `start..<end` of a request line (no line feed among them): its length, its spaces,
        /// and the first bytes after its last space.
        mutating func takeRequestLine(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
            guard let base = bytes.baseAddress else { return }
            lineLength += end - start
            requestLineLength = lineLength
            var wordStart = start
            var at = start
            while at < end, let space = memchr(base + at, Int32(UInt8(ascii: " ")), end - at) {
                spaces += 1
                at = base.distance(to: space) + 1
                wordStart = at
                lastWord.removeAll(keepingCapacity: true)
            }
            let room = Self.versionLimit + 1 - lastWord.count
            if room > 0 { lastWord.append(contentsOf: bytes[wordStart..<min(end, wordStart + room)]) }
        }

        /// The end of a line: records a request line's version, and returns how far back from the
        /// line feed its minor version digit is when it is to be rewritten.
        mutating func endLine() -> Int? {
            defer {
                lineLength = 0
                inFirstToken = true
                isRequestLine = false
                spaces = 0
                if !firstToken.isEmpty { firstToken.removeAll(keepingCapacity: true) }
                if !lastWord.isEmpty { lastWord.removeAll(keepingCapacity: true) }
            }
            guard isRequestLine, spaces == 2 else { return nil }
            swap(&versionBytes, &lastWord)
            let carriageReturn = versionBytes.last == UInt8(ascii: "\r")
            if carriageReturn { versionBytes.removeLast() }
            hasVersion = true
            guard versionBytes.count == 8, versionBytes.starts(with: Self.http1Prefix),
                (UInt8(ascii: "2")...UInt8(ascii: "9")).contains(versionBytes[7])
            else { return nil }
            versionBytes[7] = UInt8(ascii: "1")
            return carriageReturn ? 2 : 1
        }

        static let http1Prefix = Array("HTTP/1.".utf8)
    }

    /// RFC 9110 §5.6.2's tchar.
    /// Compares, never allocates: it runs on every byte of every line's first word.
    @inline(__always) static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#")...UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

/// The answers to requests the router never sees: the parser's rejections and bad Host fields,
/// each with tally's one-line body.
enum RequestError {
    /// The parser's limit on a request target, and on a request's header section (NIO's
    /// default, 80 KiB).
    static let limits = NIOHTTPDecoderLimitConfiguration()

    /// The status and message for a parser error, in the light of what `lines` saw.
    static func answer(to error: HTTPParserError, lines: RequestLineWatcher) -> (HTTPResponseStatus, String) {
        let limit = Words.grouped(UInt64(limits.maxHeaderFieldSize))
        switch error {
        case .headerOverflow where lines.requestLineLength > limits.maxHeaderFieldSize:
            return (.uriTooLong, "the request target is longer than \(limit) bytes")
        case .headerOverflow:
            return (
                .requestHeaderFieldsTooLarge,
                "the request's header fields are longer than \(Words.grouped(UInt64(limits.maxHeaderListSize))) bytes"
            )
        case .invalidVersion:
            guard let version = lines.version, isVersion(version) else {
                return (.badRequest, "the request line has no valid HTTP version")
            }
            return (
                .httpVersionNotSupported,
                "\(URLText.printable(version)) is not supported; tally serve speaks HTTP/1.0 and HTTP/1.1"
            )
        case .invalidMethod:
            guard let method = lines.method else { return (.badRequest, "the request line is malformed") }
            return (
                .notImplemented,
                "method '\(URLText.printable(method))' is not implemented (methods are case-sensitive); tally serve answers GET and HEAD"
            )
        default:
            return (.badRequest, "the request is malformed (\(URLText.printable(String(describing: error))))")
        }
    }

    /// `HTTP/d.d`.
    private static func isVersion(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        return bytes.count == 8 && bytes.starts(with: Array("HTTP/".utf8)) && digits.contains(bytes[5])
            && bytes[6] == UInt8(ascii: ".") && digits.contains(bytes[7])
    }

    /// What is wrong with a request's Host fields (RFC 9112 §3.2): none in HTTP/1.1, more than
    /// one, or one that is not `host[:port]`; nil when they are right.
    static func hostProblem(_ head: HTTPRequestHead) -> String? {
        let hosts = head.headers["Host"]
        if hosts.isEmpty && head.version != .http1_0 {
            return "the request has no Host field; HTTP/1.1 requires one"
        }
        if hosts.count > 1 {
            return "the request has \(hosts.count) Host fields; exactly one is allowed"
        }
        if let host = hosts.first, !isHost(Substring(host)) {
            return "Host '\(URLText.printable(String(host)))' is not a host[:port]"
        }
        return nil
    }

    /// RFC 3986's `host [ ":" port ]`: a name of unreserved, percent-encoded and sub-delimiter
    /// characters, or an IP literal in brackets; empty is allowed (RFC 9110 §7.2). A reg-name's
    /// characters are the token characters less `# ^ \` |`, plus `( ) , ; =`.
    static func isHost(_ text: Substring) -> Bool {
        // Read as bytes: the Character view's classification cost 11K instructions a request
        // (BENCHMARKS.md, "tally serve"), and every byte allowed here is ASCII.
        isHost(bytes: text.utf8)
    }

    /// `isHost` on a field value's bytes, as a request's are read before the parser.
    static func isHost<Bytes: BidirectionalCollection<UInt8>>(bytes: Bytes) -> Bool {
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy(isIPLiteralByte) else { return false }
            let rest = bytes[bytes.index(after: close)...]
            return rest.isEmpty || isPort(rest)
        }
        var name = bytes[...]
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            guard isPort(bytes[colon...]) else { return false }
            name = bytes[..<colon]
        }
        return name.allSatisfy(isRegNameByte)
    }

    /// A hexadecimal digit, `:`, `.`, `v` or `V`: what an IP literal in brackets is made of.
    private static func isIPLiteralByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "v"),
            UInt8(ascii: "V"):
            true
        default: false
        }
    }

    /// A reg-name's byte: a token byte but `# ^ \` |`, or one of `( ) ; = ,`. That is RFC 3986's
    /// unreserved bytes, `%` and the sub-delimiters (a request target's bytes are these and
    /// `: @ / ?`, `PlainRequest.isTargetByte`).
    static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "|"): false
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ","): true
        default: RequestLineWatcher.isTokenByte(byte)
        }
    }

    /// `:digits`.
    private static func isPort<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.first == UInt8(ascii: ":")
            && bytes.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A response written below the HTTP encoder, framed (its length and its one-line body), with
    /// the router's error headers, then the connection closes. The encoder cannot write it: it
    /// is in the middle of no response, and after a parse error Hummingbird writes none.
    static func write(
        _ status: HTTPResponseStatus, _ message: String, extraHeaders: String = "", context: ChannelHandlerContext
    ) {
        let body = CommandFailure.line(message)
        let head =
            "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\(extraHeaders)"
            + "Connection: close\r\n\r\n"
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        encoder.writeAndFlush(NIOAny(ByteBuffer(string: head + body))).whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
#endif
