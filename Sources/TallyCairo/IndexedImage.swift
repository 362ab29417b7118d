#if Cairo
/// An image of at most 256 colours as a PNG palette and rows of indices (SPEC §5: the smallest
/// lossless colour type that holds the picture).
///
/// The colours are counted in one pass over the pixels with a small open-addressed table (512
/// slots, linear probing), which stops at the 257th colour: a table of fixed size needs no
/// allocation per colour and no hashing of Swift values, and a run of equal pixels, the
/// commonest case, costs one comparison. The palette order is fixed: the colours with some
/// transparency first (so `tRNS` lists only those), then the opaque ones, each group in order
/// of first appearance, top to bottom, left to right; so the same pixels give the same bytes.
struct IndexedImage {
    /// The palette, in index order.
    let palette: [(red: UInt8, green: UInt8, blue: UInt8)]
    /// The alpha of each palette entry that is not opaque (the leading entries); empty when
    /// every colour is opaque, and then no `tRNS` chunk is written.
    let alphas: [UInt8]
    /// Bits an index: 1, 2, 4 or 8, the fewest the palette allows.
    let bitDepth: Int
    private let width: Int
    private let height: Int
    /// One palette index a pixel, rows top to bottom.
    private let indices: [UInt8]

    /// The indexed form of premultiplied ARGB pixels (Cairo's ARGB32, rows of `stride` pixels),
    /// or nil when they have more than 256 colours.
    init?(width: Int, height: Int, stride: Int, pixels: UnsafePointer<UInt32>) {
        let slots = 512
        var keys = [UInt32](repeating: 0, count: slots)
        var entries = [Int16](repeating: -1, count: slots)  // first-appearance number, or -1: empty
        var colours = [UInt32](repeating: 0, count: 256)
        var found = 0
        var tooMany = false
        let count = width * height
        var firstSeen = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            keys.withUnsafeMutableBufferPointer { keys in
                entries.withUnsafeMutableBufferPointer { entries in
                    colours.withUnsafeMutableBufferPointer { colours in
                        var last = pixels[0]
                        var lastEntry: UInt8 = 0
                        // The first pixel is the first colour.
                        let first = Int((last &* 0x9E37_79B1) >> 23)
                        (keys[first], entries[first], colours[0], found) = (last, 0, last, 1)
                        var target = buffer.baseAddress!
                        rows: for row in 0..<height {
                            let line = pixels + row * stride
                            for column in 0..<width {
                                let pixel = line[column]
                                if pixel != last {
                                    var slot = Int((pixel &* 0x9E37_79B1) >> 23)  // the top 9 bits: 0 ..< 512
                                    while entries[slot] >= 0 && keys[slot] != pixel { slot = (slot + 1) & (slots - 1) }
                                    if entries[slot] < 0 {
                                        guard found < 256 else {
                                            tooMany = true
                                            break rows
                                        }
                                        (keys[slot], entries[slot], colours[found]) = (pixel, Int16(found), pixel)
                                        found += 1
                                    }
                                    (last, lastEntry) = (pixel, UInt8(truncatingIfNeeded: entries[slot]))
                                }
                                target.pointee = lastEntry
                                target += 1
                            }
                        }
                        initialized = target - buffer.baseAddress!
                    }
                }
            }
        }
        colours.removeSubrange(found...)
        guard !tooMany else { return nil }
        // Translucent colours first, then opaque ones, each in order of first appearance.
        let straight = colours.map(PNGEncoder.straight)
        let order =
            straight.indices.filter { straight[$0].alpha < 255 } + straight.indices.filter { straight[$0].alpha == 255 }
        var remap = [UInt8](repeating: 0, count: 256)
        for (index, entry) in order.enumerated() { remap[entry] = UInt8(index) }
        if order != Array(straight.indices) {
            for index in firstSeen.indices { firstSeen[index] = remap[Int(firstSeen[index])] }
        }
        self.palette = order.map { (straight[$0].red, straight[$0].green, straight[$0].blue) }
        self.alphas = order.prefix { straight[$0].alpha < 255 }.map { straight[$0].alpha }
        self.bitDepth = colours.count <= 2 ? 1 : colours.count <= 4 ? 2 : colours.count <= 16 ? 4 : 8
        self.width = width
        self.height = height
        self.indices = firstSeen
    }

    /// The rows as a PNG stores them: each behind filter 0 (none), indices packed most
    /// significant bits first. Measured on indexed data (BENCHMARKS.md), no filter came out
    /// smallest, as it did for RGBA.
    func rows() -> [UInt8] {
        let perByte = 8 / bitDepth
        let rowBytes = (width + perByte - 1) / perByte
        return [UInt8](unsafeUninitializedCapacity: (rowBytes + 1) * height) { output, initialized in
            var target = 0
            indices.withUnsafeBufferPointer { source in
                for row in 0..<height {
                    output[target] = 0  // filter: none
                    target += 1
                    let line = row * width
                    if bitDepth == 8 {
                        UnsafeMutableRawPointer(output.baseAddress! + target)
                            .copyMemory(from: source.baseAddress! + line, byteCount: width)
                    } else {
                        for byte in 0..<rowBytes {
                            var packed: UInt8 = 0
                            for slot in 0..<perByte {
                                let column = byte * perByte + slot
                                let index = column < width ? source[line + column] : 0
                                packed |= index << UInt8(8 - bitDepth * (slot + 1))
                            }
                            output[target + byte] = packed
                        }
                    }
                    target += rowBytes
                }
            }
            initialized = target
        }
    }
}
#endif
