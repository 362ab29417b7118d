#if Cairo
import CZlib
import Testing
@testable import TallyCairo
import TallyTestSupport

/// tally's own DEFLATE encoder for PNG image data (SPEC §5: any decoder reads the PNG; the
/// stream is RFC 1950 around RFC 1951). Every stream is inflated by zlib, which shares no code
/// with it; the PNG-level checks (`IndexedPNGTests`, the snapshot suite) decode whole files with
/// Python's zlib.
@Suite struct ImageDeflaterTests {
    /// zlib's inflate of a whole zlib stream (it checks the header and the Adler-32 too), or nil
    /// when zlib refuses it.
    private func inflate(_ stream: [UInt8], expecting count: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: max(count, 1))
        var length = uLongf(output.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK else { return nil }
        return Array(output[0..<Int(length)])
    }

    /// Inputs of the kinds a tally image has, and the kinds it never has: runs of a few values,
    /// rows repeated or shifted, pixels of 1 and 4 bytes, random noise (stored blocks), matches
    /// at the window's edge (32,768 back) and past it, and inputs of 0 to 10 bytes.
    private func inputs(seed: UInt64) -> [(bytes: [UInt8], rowLength: Int, bytesPerPixel: Int, kind: String)] {
        var random = SeededGenerator(state: seed)
        var cases: [(bytes: [UInt8], rowLength: Int, bytesPerPixel: Int, kind: String)] = []
        for count in 0...10 {
            cases.append(((0..<count).map { _ in UInt8.random(in: 0...2, using: &random) }, 3, 1, "\(count) bytes"))
        }
        for bpp in [1, 4] {
            for _ in 0..<12 {
                let rowLength = bpp * Int.random(in: 1...300, using: &random) + 1
                let height = Int.random(in: 1...60, using: &random)
                let palette = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                    (0..<bpp).map { _ in UInt8.random(in: 0...255, using: &random) }
                }
                var rows: [[UInt8]] = []
                for _ in 0..<height {
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0 where !rows.isEmpty: rows.append(rows.last!)
                    case 1 where !rows.isEmpty: rows.append([0] + rows.last!.dropFirst().dropFirst(bpp) + palette[0])
                    default:
                        var row: [UInt8] = [0]
                        while row.count < rowLength {
                            let run = Int.random(in: 1...80, using: &random)
                            let pixel = palette.randomElement(using: &random)!
                            for _ in 0..<run where row.count < rowLength { row += pixel }
                        }
                        rows.append(Array(row.prefix(rowLength)))
                    }
                }
                cases.append(
                    (rows.flatMap { $0 }, rowLength, bpp, "\(height) rows of \(rowLength) bytes, \(bpp) a pixel"))
            }
        }
        let noise = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        cases.append((noise, 1_001, 4, "70,000 random bytes"))
        // The same 600 bytes again 32,768 and 32,769 bytes later, with noise between.
        let phrase = (0..<600).map { _ in UInt8.random(in: 0...255, using: &random) }
        var far = phrase + (0..<(32_768 - 600)).map { _ in UInt8.random(in: 0...255, using: &random) } + phrase
        far += [7] + phrase
        cases.append((far, 257, 1, "a repeat at the window's edge and one past it"))
        cases.append(([UInt8](repeating: 9, count: 100_000), 100, 1, "100,000 equal bytes"))
        return cases
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyStreamInflatesToItsInput(seed: UInt64) throws {
        for input in inputs(seed: seed) {
            let stream = ImageDeflater.zlibStream(
                input.bytes, rowLength: input.rowLength, bytesPerPixel: input.bytesPerPixel)
            let inflated = try #require(inflate(stream, expecting: input.bytes.count), "zlib refused \(input.kind)")
            #expect(inflated == input.bytes, "\(input.kind)")
            // Never much larger than the input: a block that would be is stored instead, at five
            // bytes a block (of at most 16,383 symbols, so of bytes), and six of zlib's.
            let blocks = input.bytes.count / ImageDeflater.blockSymbols + 1
            #expect(stream.count <= input.bytes.count + 5 * blocks + 6, "\(input.kind)")
        }
    }

    /// The checksums of a PNG (SPEC §5: any decoder reads it): tally's CRC-32 of every chunk and
    /// Adler-32 of the zlib stream are zlib's, over empty input, single bytes, and lengths around
    /// Adler-32's reduction every 5,552 bytes (all 255s, the largest sums).
    @Test(arguments: [1, 2] as [UInt64])
    func checksumsAreZlibs(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        var cases: [[UInt8]] = [[], [0], [255], Array("IEND".utf8)]
        for count in [5_551, 5_552, 5_553, 11_104, 100_000] {
            cases.append([UInt8](repeating: 255, count: count))
            cases.append((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        for bytes in cases {
            bytes.withUnsafeBufferPointer { buffer in
                #expect(Checksums.crc32(buffer) == UInt32(crc32(0, buffer.baseAddress, uInt(buffer.count))))
                #expect(Checksums.adler32(buffer) == UInt32(adler32(1, buffer.baseAddress, uInt(buffer.count))))
            }
        }
    }

    /// What the run-aware match finder is for: a row that repeats the one above costs a few
    /// matches, and flat colour a match every 258 bytes, so these shrink to a tiny fraction. A
    /// finder that missed the row above or the run would leave them hundreds of times larger.
    @Test func repeatedRowsAndFlatColourShrinkToAFewBytes() throws {
        var random = SeededGenerator(state: 7)
        let row: [UInt8] = [0] + (0..<999).map { _ in UInt8.random(in: 0...3, using: &random) }
        let repeated = [[UInt8]](repeating: row, count: 500).flatMap { $0 }
        let stream = ImageDeflater.zlibStream(repeated, rowLength: 1_000, bytesPerPixel: 1)
        #expect(try #require(inflate(stream, expecting: repeated.count)) == repeated)
        // The first row's 999 literals of 2 or 3 bits, then about 1,940 matches of some 10 bits
        // each (the distance 1,000 has 8 extra bits); as literals it would be about 125,000.
        #expect(stream.count < 3_000, "500 equal rows of 1,000 bytes: \(stream.count) bytes")

        let flat = [UInt8](repeating: 3, count: 1_000_000)
        let flatStream = ImageDeflater.zlibStream(flat, rowLength: 1_000, bytesPerPixel: 1)
        #expect(try #require(inflate(flatStream, expecting: flat.count)) == flat)
        #expect(flatStream.count < 1_200, "1,000,000 equal bytes: \(flatStream.count) bytes")
    }

    /// The edge of a run found again: the same short pattern ending long runs, each time at a
    /// new distance no fixed candidate (the pixel before, the row above) covers. A finder that
    /// only looked at those would code each pattern's bytes as literals.
    @Test func aRunsEndIsFoundWhereverItRecurs() throws {
        var random = SeededGenerator(state: 11)
        let pattern: [UInt8] = [5, 6, 7, 8, 9, 10, 11, 12]
        var bytes: [UInt8] = []
        for _ in 0..<400 {
            bytes += [UInt8](repeating: 1, count: Int.random(in: 20...200, using: &random)) + pattern
        }
        let stream = ImageDeflater.zlibStream(bytes, rowLength: 1_000_003, bytesPerPixel: 1)
        #expect(try #require(inflate(stream, expecting: bytes.count)) == bytes)
        // 400 runs and patterns: about two matches each, not 3,200 literals.
        #expect(stream.count < 1_600, "\(bytes.count) bytes: \(stream.count)")
    }

    /// Huffman code lengths for random alphabets, skewed ones included (frequencies that grow
    /// like Fibonacci numbers make an unlimited code deeper than 15 bits).
    @Test func huffmanLengthsAreCompleteLimitedAndOrdered() {
        var random = SeededGenerator(state: 3)
        for trial in 0..<300 {
            // DEFLATE's alphabets: 286 literals and lengths, 30 distances (15 bits), 19 code
            // lengths (7 bits).
            let limit = trial % 3 == 0 ? 7 : 15
            let size = Int.random(in: 2...(limit == 7 ? 19 : 286), using: &random)
            var frequencies = [Int](repeating: 0, count: size)
            if trial % 5 == 0 {
                var (a, b) = (1, 1)
                for i in 0..<min(size, 40) {
                    frequencies[i] = a
                    (a, b) = (b, a + b)
                }
            } else {
                for i in 0..<size where Int.random(in: 0..<3, using: &random) > 0 {
                    frequencies[i] = Int.random(in: 1...(trial % 2 == 0 ? 10 : 100_000), using: &random)
                }
            }
            let lengths = Huffman.lengths(frequencies, limit: limit)
            let used = frequencies.indices.filter { frequencies[$0] > 0 }
            #expect(lengths.allSatisfy { $0 <= limit })
            #expect(used.allSatisfy { lengths[$0] > 0 }, "every used symbol has a code")
            let coded = lengths.indices.filter { lengths[$0] > 0 }
            // At least two codes, and a complete code: the Kraft sum is exactly 1.
            #expect(coded.count >= 2)
            #expect(coded.reduce(0) { $0 + 1 << (limit - lengths[$1]) } == 1 << limit, "trial \(trial)")
            // A more frequent symbol never has a longer code.
            for a in used {
                for b in used where frequencies[a] > frequencies[b] {
                    #expect(lengths[a] <= lengths[b], "trial \(trial)")
                }
            }
            // Where the limit does not bind, as short in total as a textbook Huffman code.
            if used.count >= 2, reference(frequencies).max()! <= limit {
                let ours = used.reduce(0) { $0 + frequencies[$1] * lengths[$1] }
                let textbook = zip(frequencies, reference(frequencies)).reduce(0) { $0 + $1.0 * $1.1 }
                #expect(ours == textbook, "trial \(trial)")
            }
        }
    }

    /// Huffman's algorithm as textbooks state it: merge the two lightest trees until one is left.
    private func reference(_ frequencies: [Int]) -> [Int] {
        var trees: [(weight: Int, symbols: [Int])] = frequencies.indices.filter { frequencies[$0] > 0 }.map {
            (frequencies[$0], [$0])
        }
        var depth = [Int](repeating: 0, count: frequencies.count)
        while trees.count > 1 {
            trees.sort { $0.weight < $1.weight }
            let (a, b) = (trees.removeFirst(), trees.removeFirst())
            for symbol in a.symbols + b.symbols { depth[symbol] += 1 }
            trees.append((a.weight + b.weight, a.symbols + b.symbols))
        }
        return depth
    }

    /// The second try for large images: a row equal to the one above goes behind Up (all zeros),
    /// every other row stays as it was, and undoing Up gives the rows back.
    @Test func repeatedRowsGoBehindUpAndNothingElseChanges() throws {
        var random = SeededGenerator(state: 5)
        for _ in 0..<50 {
            let rowLength = Int.random(in: 2...40, using: &random)
            var rows: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                if !rows.isEmpty && Bool.random(using: &random) {
                    rows.append(rows.last!)
                } else {
                    rows.append([0] + (1..<rowLength).map { _ in UInt8.random(in: 0...2, using: &random) })
                }
            }
            let data = rows.flatMap { $0 }
            let repeats = (1..<max(rows.count, 1)).filter { rows[$0] == rows[$0 - 1] }
            guard let filtered = PNGEncoder.upWhereRowsRepeat(data, rowLength: rowLength) else {
                #expect(repeats.isEmpty)
                continue
            }
            #expect(!repeats.isEmpty)
            for (index, row) in rows.enumerated() {
                let out = Array(filtered[(index * rowLength)..<((index + 1) * rowLength)])
                if repeats.contains(index) {
                    #expect(out == [2] + [UInt8](repeating: 0, count: rowLength - 1))
                } else {
                    #expect(out == row)
                }
            }
        }
    }
}
#endif
