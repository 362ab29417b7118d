#if Cairo
import TallyPOSIX

/// DEFLATE (RFC 1951) in a zlib stream (RFC 1950), written for the rows of a tally image.
///
/// Why tally deflates its own PNG data rather than calling zlib or libdeflate (BENCHMARKS.md,
/// "PNG bytes against optipng"): a tally is flat colour with anti-aliased edges, so most of its
/// bytes sit in runs, and what makes it small is finding, for the few bytes where a run ends,
/// the earlier place where the same run ended the same way (the row above, the block to the
/// left). A general match finder walks thousands of equal candidates in flat colour to get
/// there: zlib at level 9 took about 100M instructions a pass for 9,999 at 1,024 px, and every
/// cheaper zlib or libdeflate setting gave up several percent of the bytes. This one knows runs:
///
/// - A position whose next four bytes repeat the pixel before them is *in a run*. Runs are never
///   put in the hash chains (only their first position is), so the chains hold the few
///   positions where something changes, and stay short.
/// - A match that starts in a run and is longer than the run must go on through the place the
///   run ends, so its candidates are read from the chain of that place, each moved back by the
///   run's remaining length. This finds exactly the matches a full search would, among far
///   fewer candidates.
/// - Lazy evaluation as zlib does it (a literal and the next position's match, when that is
///   longer, looked for after a match shorter than `lazyLimit`), chains cut at `chainLimit`
///   as zlib's are, Huffman codes limited to 15 bits, and each block written dynamic, fixed or stored,
///   whichever is smallest.
///
/// The output is any valid zlib stream, decoded by every inflater; it is deterministic: the
/// same bytes in give the same bytes out on every machine.
package enum ImageDeflater {
    /// The zlib stream of `bytes`, rows of `rowLength` bytes (filter byte included) of
    /// `bytesPerPixel` bytes a pixel: both are hints to the match finder, any values are valid.
    static func zlibStream(_ bytes: [UInt8], rowLength: Int, bytesPerPixel: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0xDA]  // deflate, 32 KiB window; the "maximum compression" level hint
        out += rawDeflate(bytes, rowLength: rowLength, bytesPerPixel: bytesPerPixel)
        out += adlerTrailer(bytes)
        return out
    }

    /// The bytes that end a zlib stream: the Adler-32 of the uncompressed data, big-endian.
    static func adlerTrailer(_ bytes: [UInt8]) -> [UInt8] {
        let checksum = bytes.withUnsafeBufferPointer { Checksums.adler32($0) }
        return [
            UInt8(checksum >> 24), UInt8(checksum >> 16 & 0xFF), UInt8(checksum >> 8 & 0xFF), UInt8(checksum & 0xFF),
        ]
    }

    /// The DEFLATE blocks of `bytes`, with no zlib header or trailer.
    static func rawDeflate(_ bytes: [UInt8], rowLength: Int, bytesPerPixel: Int) -> [UInt8] {
        var writer = BitWriter(capacity: bytes.count / 16 + 64)
        bytes.withUnsafeBufferPointer { input in
            guard input.count > 0 else {
                BlockWriter.write(UnsafeBufferPointer(start: nil, count: 0), raw: input, last: true, to: &writer)
                return
            }
            var finder = MatchFinder(input, rowLength: rowLength, bytesPerPixel: bytesPerPixel)
            defer { finder.deallocate() }
            finder.parse { symbols, range, last in
                BlockWriter.write(symbols, raw: UnsafeBufferPointer(rebasing: input[range]), last: last, to: &writer)
            }
        }
        return writer.finish()
    }

    /// Symbols a block holds at most, as zlib's default memory level gives (16 K): short enough
    /// for the codes to follow a change in the picture, long enough to amortise a block's header.
    static let blockSymbols = 16_383

    /// Longest chain of earlier positions looked at for one match. Over `make bench`'s 36 images
    /// (BENCHMARKS.md, "PNG: the match finder's limits"), with `startChainLimit` and `lazyLimit`
    /// below: 1.046 × optipng's bytes at 128, 1.050 at 96, 1.040 at 256, where 256 cost a drawn
    /// 256 px PNG 1.7M instructions more, and 9,999 at 1,024 px 22M more.
    static let chainLimit = 128

    /// Chain looked at for the first position of a run, where the pixel before already gives a
    /// match and the search of where the run ends (`chainLimit`) finds the longer ones: 16
    /// gave the same bytes as 128, for 0.1M instructions less a 256 px image.
    static let startChainLimit = 16

    /// A match at least this long is taken without looking one position on for a longer one
    /// (zlib's `max_lazy`): the look costs a whole search, and after a long match it seldom
    /// wins. 32: 1.0464 × optipng; 16: 1.050; 258 (always look): 1.040, for 1M instructions
    /// more a 256 px image.
    static let lazyLimit = 32
}

extension ImageDeflater {
    /// Whether zlib inflates `zlibStream(bytes, …)` back to `bytes`, exactly: the check of the
    /// `FuzzDeflate` target (through `Renderer.fuzzDeflate`). tally links no zlib (`Checksums`
    /// says why), so its `uncompress` is loaded here, for this check alone; false without it.
    package static func roundTrips(_ bytes: [UInt8], rowLength: Int, bytesPerPixel: Int) -> Bool {
        typealias Uncompress =
            @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt)
            -> Int32
        #if os(macOS)
        let library = "libz.1.dylib"
        #else
        let library = "libz.so.1"
        #endif
        guard let handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL), let address = dlsym(handle, "uncompress") else {
            return false
        }
        let uncompress = unsafeBitCast(address, to: Uncompress.self)
        let stream = zlibStream(bytes, rowLength: rowLength, bytesPerPixel: bytesPerPixel)
        var output = [UInt8](repeating: 0, count: bytes.count + 1)
        var length = UInt(output.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, UInt($0.count)) }
        }
        // Z_OK is 0.
        return status == 0 && Int(length) == bytes.count && output.prefix(bytes.count).elementsEqual(bytes)
    }
}

/// One parsed symbol: a literal byte (distance 0), or a match of `length` 3…258 at `distance`
/// 1…32,768, packed as `distance << 9 | length`.
enum Symbol {
    @inline(__always) static func literal(_ byte: UInt8) -> UInt32 { UInt32(byte) }
    @inline(__always) static func match(length: Int, distance: Int) -> UInt32 { UInt32(distance << 9 | length) }
    @inline(__always) static func distance(_ symbol: UInt32) -> Int { Int(symbol >> 9) }
    @inline(__always) static func length(_ symbol: UInt32) -> Int { Int(symbol & 0x1FF) }
    @inline(__always) static func inputLength(_ symbol: UInt32) -> Int { symbol >> 9 == 0 ? 1 : Int(symbol & 0x1FF) }
}

/// LZ77 over the input: hash chains of four-byte prefixes, run-aware (see `ImageDeflater`).
struct MatchFinder {
    let input: UnsafePointer<UInt8>
    let count: Int
    let bytesPerPixel: Int
    let rowLength: Int
    /// The most recent inserted position of each hash, or -1.
    let head: UnsafeMutablePointer<Int32>
    /// For each inserted position of the last `window`, at `position & windowMask`, the
    /// previous inserted position of the same hash, or -1 (an entry no position was inserted at
    /// is never read, and never set). A chain is followed only while its
    /// positions are within the window, so an entry is read before it is written over.
    let previous: UnsafeMutablePointer<Int32>
    /// Positions below this one have been inserted (or skipped as runs).
    var inserted = 0
    /// The first position of a run looked along by the last search, and where that run ends
    /// (the first position not in a run, found from there).
    var runSearchedFrom = 0
    var runEnd = 0
    /// Positions from here on are never run-tested or inserted: the test reads four bytes a
    /// pixel further on.
    let runLimit: Int

    /// 4,096 chains (16 KB of heads, set to -1 for every image): the positions put in them are
    /// the few where something changes, so 32,768 (128 KB) cut no chain that mattered: the same
    /// bytes within 0.01% over the 36 images, for 0.1M instructions more a 256 px image.
    static let hashBits = 12
    static let window = 32_768
    static let windowMask = window - 1
    static let maxLength = 258

    /// - Parameter buffer: at least one byte.
    init(_ buffer: UnsafeBufferPointer<UInt8>, rowLength: Int, bytesPerPixel: Int) {
        input = buffer.baseAddress!
        count = buffer.count
        self.bytesPerPixel = max(1, min(bytesPerPixel, 8))
        self.rowLength = rowLength
        head = .allocate(capacity: 1 << Self.hashBits)
        head.initialize(repeating: -1, count: 1 << Self.hashBits)
        // Left uninitialised: an entry is read only for a position a chain reached, which was
        // inserted, so its entry was written then (128 KB a deflate not set for nothing).
        previous = .allocate(capacity: Self.window)
        runLimit = count - 3 - self.bytesPerPixel
    }

    func deallocate() {
        head.deallocate()
        previous.deallocate()
    }

    // Loads read little-endian on every machine (a no-op on x86-64 and arm64): the first differing
    // byte is then the lowest set byte of an exclusive or, and the hashes, so the bytes written,
    // are the same everywhere.
    @inline(__always) private func load32(_ at: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(input + at).loadUnaligned(as: UInt32.self))
    }

    @inline(__always) private func load64(_ at: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(input + at).loadUnaligned(as: UInt64.self))
    }

    @inline(__always) private func hash(_ at: Int) -> Int {
        Int((load32(at) &* 2_654_435_761) >> UInt32(32 - Self.hashBits))
    }

    /// Whether the four bytes at `at` repeat those a pixel before them (`at < runLimit`).
    @inline(__always) private func isRun(_ at: Int) -> Bool {
        load32(at) == load32(at + bytesPerPixel)
    }

    /// The first position from `from` (below `limit`, or `limit`) that is not in a run: eight
    /// bytes compared with those a pixel on at a time, so flat colour is crossed quickly.
    @inline(__always) private func nextNonRun(_ from: Int, _ limit: Int) -> Int {
        var x = from
        // Two words at a time while both are whole inside the input, then byte by byte.
        let wordLimit = min(limit, count - 16 - bytesPerPixel)
        while x < wordLimit {
            let difference = load64(x) ^ load64(x + bytesPerPixel)
            if difference == 0 {
                if load64(x + 8) ^ load64(x + 8 + bytesPerPixel) == 0 {
                    x += 13  // x … x + 12 are all in the run
                } else {
                    x += 5  // x … x + 4 are
                }
                continue
            }
            let firstDifferent = difference.trailingZeroBitCount >> 3
            if firstDifferent < 4 { return x }
            x += firstDifferent - 3
        }
        while x < limit && isRun(x) { x += 1 }
        return min(x, limit)
    }

    @inline(__always) private mutating func insert(_ at: Int) {
        let h = hash(at)
        previous[at & Self.windowMask] = head[h]
        head[h] = Int32(truncatingIfNeeded: at)
    }

    /// Inserts every position below `end` that starts something: not in a run, or the first
    /// position of one.
    private mutating func insert(upTo end: Int) {
        let end = min(end, runLimit)
        var x = inserted
        while x < end {
            let next = nextNonRun(x, end)
            if next > x && (x < bytesPerPixel || !isRun(x - 1)) { insert(x) }
            x = next
            if x >= end { break }
            insert(x)
            x += 1
        }
        if x > inserted { inserted = x }
    }

    /// How many bytes from `a` equal those from `b` (`a < b`), up to `limit`.
    @inline(__always) private func matchLength(_ a: Int, _ b: Int, _ limit: Int) -> Int {
        var length = 0
        while length + 8 <= limit {
            let difference = load64(a + length) ^ load64(b + length)
            if difference != 0 { return length + difference.trailingZeroBitCount >> 3 }
            length += 8
        }
        while length < limit && input[a + length] == input[b + length] { length += 1 }
        return length
    }

    /// The longest match for position `at` (its length, 0 if none of 3 or more, and distance);
    /// on equal lengths, the nearest.
    private mutating func longestMatch(at i: Int) -> (length: Int, distance: Int) {
        let limit = min(Self.maxLength, count - i)
        if limit < 3 { return (0, 0) }
        var best = 2
        var bestDistance = 0
        let bpp = bytesPerPixel

        @inline(__always) func consider(_ candidate: Int) -> Bool {
            guard input[candidate + best] == input[i + best] else { return false }
            let length = matchLength(candidate, i, limit)
            if length > best || (length == best && i - candidate < bestDistance) {
                best = length
                bestDistance = i - candidate
            }
            return best == limit
        }

        if i >= bpp && i < runLimit && isRun(i) {
            // In a run: the pixel before repeats all of it.
            if input[i - bpp] == input[i] { _ = consider(i - bpp) }
            if best < 3 {
                // The run's first position: an earlier place that starts the same way.
                var p = Int(head[hash(i)])
                var chain = ImageDeflater.startChainLimit
                while p >= 0 && i - p <= Self.window && chain > 0 {
                    if consider(p) { break }
                    p = Int(previous[p & Self.windowMask])
                    chain -= 1
                }
            }
            // Where the run ends. Every position from `runSearchedFrom` to `runEnd` is known to
            // be in a run, so a search in the same run (the lazy look one position on, the next
            // match's start) goes on from there instead of reading the run again.
            let scanLimit = min(i + Self.maxLength + 1, runLimit)
            if i >= runSearchedFrom && i <= runEnd {
                if runEnd < scanLimit && isRun(runEnd) { runEnd = nextNonRun(runEnd, scanLimit) }
            } else {
                runSearchedFrom = i
                runEnd = nextNonRun(i, scanLimit)
            }
            let end = min(runEnd, scanLimit)
            if best < limit && end - i <= Self.maxLength && end < runLimit {
                // Longer than the run: candidates from the chain of where it ends.
                let remaining = end - i
                var p = Int(head[hash(end)])
                var chain = ImageDeflater.chainLimit
                while p >= 0 && chain > 0 {
                    let start = p - remaining
                    if i - start > Self.window { break }
                    if start >= 0 && consider(start) { break }
                    p = Int(previous[p & Self.windowMask])
                    chain -= 1
                }
            }
        } else {
            var done = i >= 1 && consider(i - 1)
            if !done && bpp > 1 && i >= bpp { done = consider(i - bpp) }
            if !done && i < count - 3 {
                var p = Int(head[hash(i)])
                var chain = ImageDeflater.chainLimit
                while p >= 0 && i - p <= Self.window && chain > 0 {
                    if i - p > bpp && consider(p) { break }
                    p = Int(previous[p & Self.windowMask])
                    chain -= 1
                }
            }
        }
        // The row above, when nothing nearer was as long.
        if best < limit && rowLength > bestDistance && rowLength <= i && rowLength <= Self.window {
            let candidate = i - rowLength
            if input[candidate + best] == input[i + best] {
                let length = matchLength(candidate, i, limit)
                if length > best { (best, bestDistance) = (length, rowLength) }
            }
        }
        // A three-byte match far back costs more than its literals (zlib's rule).
        if best < 3 || (best == 3 && bestDistance > 4_096) { return (0, 0) }
        return (best, bestDistance)
    }

    /// The input as literals and matches, with lazy evaluation: a match is put off by a literal
    /// when the next position has a longer one. `block` receives them `ImageDeflater.blockSymbols`
    /// at a time, with the range of input they stand for and whether they are the last.
    mutating func parse(
        _ block: (_ symbols: UnsafeBufferPointer<UInt32>, _ input: Range<Int>, _ last: Bool) -> Void
    ) {
        let capacity = ImageDeflater.blockSymbols
        let symbols = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        defer { symbols.deallocate() }
        var n = 0
        var blockStart = 0
        var i = 0
        @inline(__always) func append(_ symbol: UInt32, advancing length: Int) {
            symbols[n] = symbol
            n += 1
            i += length
            if n == capacity {
                block(UnsafeBufferPointer(start: symbols, count: n), blockStart..<i, i >= count)
                blockStart = i
                n = 0
            }
        }
        var current = longestMatch(at: 0)
        while i < count {
            if current.length < 3 {
                append(Symbol.literal(input[i]), advancing: 1)
                insert(upTo: i)
                current = i < count ? longestMatch(at: i) : (0, 0)
                continue
            }
            if current.length < ImageDeflater.lazyLimit && i + 1 < count {
                insert(upTo: i + 1)
                let next = longestMatch(at: i + 1)
                if next.length > current.length {
                    append(Symbol.literal(input[i]), advancing: 1)
                    current = next
                    continue
                }
            }
            append(Symbol.match(length: current.length, distance: current.distance), advancing: current.length)
            insert(upTo: i)
            current = i < count ? longestMatch(at: i) : (0, 0)
        }
        if n > 0 {
            block(UnsafeBufferPointer(start: symbols, count: n), blockStart..<i, true)
        }
    }
}

/// Bits written least significant first, as DEFLATE packs them.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var bitCount = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends the low `count` bits of `value` (`count` ≤ 32).
    @inline(__always) mutating func write(_ value: Int, _ count: Int) {
        buffer |= UInt64(truncatingIfNeeded: value) << UInt64(bitCount)
        bitCount += count
        while bitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            bitCount -= 8
        }
    }

    /// Pads to a byte boundary with zero bits.
    mutating func alignToByte() {
        if bitCount > 0 { write(0, 8 - bitCount) }
    }

    mutating func append(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    mutating func finish() -> [UInt8] {
        alignToByte()
        return bytes
    }
}

/// Canonical Huffman codes (RFC 1951 §3.2.2).
enum Huffman {
    /// Code lengths for `frequencies`, none longer than `limit`: optimal lengths (Moffat and
    /// Katajainen's in-place algorithm over the symbols sorted by frequency), then, if some are
    /// too long, the Kraft sum restored by lengthening the longest codes that still fit, as
    /// miniz does. A used alphabet always gets at least two codes, as zlib gives it, so that
    /// every decoder accepts the table.
    static func lengths(_ frequencies: [Int], limit: Int) -> [Int] {
        var lengths = [Int](repeating: 0, count: frequencies.count)
        var symbols = frequencies.indices.filter { frequencies[$0] > 0 }
        var padding = 0
        while symbols.count < 2 && padding < frequencies.count {
            if frequencies[padding] == 0 { symbols.append(padding) }
            padding += 1
        }
        if symbols.count < 2 { return lengths }
        @inline(__always) func weight(_ symbol: Int) -> Int { max(frequencies[symbol], 1) }
        symbols.sort { weight($0) != weight($1) ? weight($0) < weight($1) : $0 < $1 }
        let m = symbols.count
        var a = symbols.map(weight)
        // In place: a[] becomes the depth of each leaf, least frequent first.
        a[0] += a[1]
        var root = 0
        var leaf = 2
        for next in 1..<(m - 1) {
            if leaf >= m || a[root] < a[leaf] {
                a[next] = a[root]
                a[root] = next
                root += 1
            } else {
                a[next] = a[leaf]
                leaf += 1
            }
            if leaf >= m || (root < next && a[root] < a[leaf]) {
                a[next] += a[root]
                a[root] = next
                root += 1
            } else {
                a[next] += a[leaf]
                leaf += 1
            }
        }
        a[m - 2] = 0
        if m >= 3 {
            for next in stride(from: m - 3, through: 0, by: -1) { a[next] = a[a[next]] + 1 }
        }
        var available = 1
        var used = 0
        var depth = 0
        root = m - 2
        var next = m - 1
        while available > 0 {
            while root >= 0 && a[root] == depth {
                used += 1
                root -= 1
            }
            while available > used {
                a[next] = depth
                next -= 1
                available -= 1
            }
            available = 2 * used
            depth += 1
            used = 0
        }
        // Counts per length, the too-long folded into `limit`, then the Kraft sum made exact.
        var perLength = [Int](repeating: 0, count: limit + 1)
        for depth in a { perLength[min(depth, limit)] += 1 }
        var kraft = 0
        for length in 1...limit { kraft += perLength[length] << (limit - length) }
        while kraft > 1 << limit {
            perLength[limit] -= 1
            for length in stride(from: limit - 1, through: 1, by: -1) where perLength[length] > 0 {
                perLength[length] -= 1
                perLength[length + 1] += 2
                break
            }
            kraft -= 1
        }
        // The longest codes to the least frequent symbols.
        var k = 0
        for length in stride(from: limit, through: 1, by: -1) {
            for _ in 0..<perLength[length] {
                lengths[symbols[k]] = length
                k += 1
            }
        }
        return lengths
    }

    /// The canonical codes for `lengths`, bit-reversed for a least-significant-first writer.
    static func codes(_ lengths: [Int]) -> [Int] {
        var perLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { perLength[length] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + perLength[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[length]
            next[length] += 1
            var reversed = 0
            for bit in 0..<length { reversed |= (value >> bit & 1) << (length - 1 - bit) }
            return reversed
        }
    }
}

/// One DEFLATE block: dynamic codes, the fixed codes or stored, whichever is fewest bits.
enum BlockWriter {
    /// Length codes 257…285 and their extra bits, for lengths 3…258.
    static let lengthCodes: (code: [Int], extraBits: [Int], extraValue: [Int]) = {
        var code = [Int](repeating: 0, count: 259)
        var extraBits = code
        var extraValue = code
        for length in 3...258 {
            let x = length - 3
            if length == 258 {
                code[length] = 285
            } else if x < 8 {
                code[length] = 257 + x
            } else {
                let top = Int.bitWidth - 1 - x.leadingZeroBitCount
                let select = x >> (top - 2) & 3
                code[length] = 257 + 4 * (top - 1) + select
                extraBits[length] = top - 2
                extraValue[length] = x - ((4 | select) << (top - 2))
            }
        }
        return (code, extraBits, extraValue)
    }()

    /// The distance code 0…29 of `distance` 1…32,768, its extra bits and their value.
    @inline(__always) static func distanceCode(_ distance: Int) -> (code: Int, extraBits: Int, extraValue: Int) {
        let x = distance - 1
        if x < 4 { return (x, 0, 0) }
        let top = Int.bitWidth - 1 - x.leadingZeroBitCount
        let bit = x >> (top - 1) & 1
        return (2 * top + bit, top - 1, x - ((2 | bit) << (top - 1)))
    }

    /// The order code-length code lengths are sent in (RFC 1951 §3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static let fixedLiteralLengths = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let fixedDistanceLengths = [Int](repeating: 5, count: 30)

    static func write(
        _ symbols: UnsafeBufferPointer<UInt32>, raw: UnsafeBufferPointer<UInt8>, last: Bool, to writer: inout BitWriter
    ) {
        let (lengthCode, lengthExtra, lengthExtraValue) = lengthCodes
        var literalFrequencies = [Int](repeating: 0, count: 286)
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        var extraBits = 0
        for symbol in symbols {
            let distance = Symbol.distance(symbol)
            if distance == 0 {
                literalFrequencies[Int(symbol)] += 1
            } else {
                let length = Symbol.length(symbol)
                literalFrequencies[lengthCode[length]] += 1
                let d = distanceCode(distance)
                distanceFrequencies[d.code] += 1
                extraBits += lengthExtra[length] + d.extraBits
            }
        }
        literalFrequencies[256] = 1

        let literalLengths = Huffman.lengths(literalFrequencies, limit: 15)
        let distanceLengths = Huffman.lengths(distanceFrequencies, limit: 15)
        var literalCount = 286
        while literalCount > 257 && literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
        var distanceCount = 30
        while distanceCount > 1 && distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }

        // The two tables' lengths, run-length coded with codes 16 (repeat the last), 17 and 18
        // (runs of zeros).
        let all = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])
        var runs: [(code: Int, extra: Int)] = []
        var codeLengthFrequencies = [Int](repeating: 0, count: 19)
        var index = 0
        while index < all.count {
            let value = all[index]
            var run = 1
            while index + run < all.count && all[index + run] == value { run += 1 }
            var left = run
            if value == 0 {
                while left >= 11 {
                    let take = min(left, 138)
                    runs.append((18, take - 11))
                    left -= take
                }
                if left >= 3 {
                    runs.append((17, left - 3))
                    left = 0
                }
            } else {
                runs.append((value, 0))
                left -= 1
                while left >= 3 {
                    let take = min(left, 6)
                    runs.append((16, take - 3))
                    left -= take
                }
            }
            for _ in 0..<left { runs.append((value, 0)) }
            index += run
        }
        for run in runs { codeLengthFrequencies[run.code] += 1 }
        let codeLengthLengths = Huffman.lengths(codeLengthFrequencies, limit: 7)
        var codeLengthCount = 19
        while codeLengthCount > 4 && codeLengthLengths[codeLengthOrder[codeLengthCount - 1]] == 0 {
            codeLengthCount -= 1
        }

        // Sizes in bits, after the three-bit block header.
        var dynamicBits = 14 + 3 * codeLengthCount + extraBits
        for run in runs {
            dynamicBits +=
                codeLengthLengths[run.code] + (run.code == 16 ? 2 : run.code == 17 ? 3 : run.code == 18 ? 7 : 0)
        }
        var fixedBits = extraBits
        for code in 0..<286 {
            dynamicBits += literalFrequencies[code] * literalLengths[code]
            fixedBits += literalFrequencies[code] * fixedLiteralLengths[code]
        }
        for code in 0..<30 {
            dynamicBits += distanceFrequencies[code] * distanceLengths[code]
            fixedBits += distanceFrequencies[code] * 5
        }
        // Stored: padding to a byte, then four bytes of length for each 65,535 bytes.
        let storedBits =
            8 + raw.count * 8 + 32 * max(1, (raw.count + 65_534) / 65_535) + 3 * max(0, (raw.count - 1) / 65_535)

        if storedBits < min(dynamicBits, fixedBits) {
            writeStored(raw, last: last, to: &writer)
            return
        }
        writer.write(last ? 1 : 0, 1)
        let lengthsUsed: [Int]
        let distancesUsed: [Int]
        if fixedBits <= dynamicBits {
            writer.write(1, 2)
            lengthsUsed = fixedLiteralLengths
            distancesUsed = fixedDistanceLengths
        } else {
            writer.write(2, 2)
            writer.write(literalCount - 257, 5)
            writer.write(distanceCount - 1, 5)
            writer.write(codeLengthCount - 4, 4)
            for i in 0..<codeLengthCount { writer.write(codeLengthLengths[codeLengthOrder[i]], 3) }
            let codeLengthCodes = Huffman.codes(codeLengthLengths)
            for run in runs {
                writer.write(codeLengthCodes[run.code], codeLengthLengths[run.code])
                switch run.code {
                case 16: writer.write(run.extra, 2)
                case 17: writer.write(run.extra, 3)
                case 18: writer.write(run.extra, 7)
                default: break
                }
            }
            lengthsUsed = literalLengths
            distancesUsed = distanceLengths
        }
        let literalCodes = Huffman.codes(lengthsUsed)
        let distanceCodes = Huffman.codes(distancesUsed)
        for symbol in symbols {
            let distance = Symbol.distance(symbol)
            if distance == 0 {
                writer.write(literalCodes[Int(symbol)], lengthsUsed[Int(symbol)])
            } else {
                let length = Symbol.length(symbol)
                let code = lengthCode[length]
                writer.write(literalCodes[code], lengthsUsed[code])
                if lengthExtra[length] > 0 { writer.write(lengthExtraValue[length], lengthExtra[length]) }
                let d = distanceCode(distance)
                writer.write(distanceCodes[d.code], distancesUsed[d.code])
                if d.extraBits > 0 { writer.write(d.extraValue, d.extraBits) }
            }
        }
        writer.write(literalCodes[256], lengthsUsed[256])
    }

    /// The block's bytes as they are, in stored blocks of up to 65,535 bytes.
    private static func writeStored(_ raw: UnsafeBufferPointer<UInt8>, last: Bool, to writer: inout BitWriter) {
        var offset = 0
        repeat {
            let length = min(65_535, raw.count - offset)
            let final = last && offset + length == raw.count
            writer.write(final ? 1 : 0, 1)
            writer.write(0, 2)
            writer.alignToByte()
            writer.write(length, 16)
            writer.write(length ^ 0xFFFF, 16)
            writer.append(UnsafeBufferPointer(rebasing: raw[offset..<(offset + length)]))
            offset += length
        } while offset < raw.count
    }
}
#endif
