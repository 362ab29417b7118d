import TallyEncoding

/// The ids of one SVG document (SPEC §2, "Inline-safe SVG"): unique to the image, so many images
/// can share one HTML page, and deterministic, so the same arguments give the same bytes.
///
/// Unless a caller names the image, its root id is a prefix and a digest of the document
/// itself, `tally-3f9a0c41b2d7`: 48 bits of a hash of the document's bytes, taken with zeros in
/// place of every digest. A writer notes where each id goes as it writes it, and `finish`
/// hashes the finished bytes once and writes the digest into those places: no second writing
/// and no search of the text. Any two images that differ in a byte (a count, a theme, a size, a
/// label, a seed) get different ids but for a one in 2⁴⁸ chance a pair. A digest of the
/// arguments instead would have to list every argument that can change the bytes, and would go
/// stale the day one is added.
///
/// Every other id is the root's and a suffix (`-title`, `-desc`, `-draw` for the animation's
/// keyframes), and an image nested in another (a gallery's tile) takes the outer root's and its
/// number (`gallery-3f9a0c41b2d7-2`), so they are unique to the image too.
///
/// It cannot be copied (one document, one list of places) and keeps the places in storage of
/// its own: the first `[Int]` of a process costs thousands of instructions in type metadata,
/// more than the rest of the work on ids, and every `tally render` writes one SVG.
package struct SVGIDs: ~Copyable {
    /// The hex digits of the digest: 48 bits.
    static let digestLength = 12

    /// The root id up to the digest (`tally-`), where tally names the image.
    private let prefix: StaticString
    /// The whole of a caller's id, where a caller names the image; empty otherwise. A string, not
    /// a byte array: destroying an array field costs its type's metadata on first use, 19K.
    private let explicitID: String
    /// Whether the digest follows the prefix, that is, whether the caller left the id to tally.
    private var isDigested: Bool { explicitID.isEmpty }
    /// What follows the digest in every id while a nested image is written: `-2` for a
    /// gallery's second tile, else nothing.
    private var nesting = ""
    /// Where a digest's placeholder was written, in bytes from the start of the document.
    private var digestOffsets: UnsafeMutablePointer<Int>
    private var digestOffsetCount = 0
    private var digestOffsetCapacity = 64

    /// The ids of a document: `explicit` (letters, digits and `-` kept) where a caller names the
    /// image, else `prefix` and the document's digest.
    package init(explicit: String?, prefix: StaticString) {
        self.prefix = prefix
        explicitID = explicit.map(SVGRenderer.sanitizedID) ?? ""
        digestOffsets = .allocate(capacity: digestOffsetCapacity)
    }

    deinit { digestOffsets.deallocate() }

    /// Runs `body` with the ids of the image nested in this document as its `number`th (a
    /// gallery's tile): this root's id, then `-number`.
    package mutating func withNested<Result>(_ number: Int, _ body: (inout SVGIDs) -> Result) -> Result {
        let outer = nesting
        nesting = outer + "-\(number)"
        defer { nesting = outer }
        return body(&self)
    }

    /// Writes the root id, then `suffix` (`-title`), noting where its digest goes.
    package mutating func append(to out: inout TextBuffer, suffix: StaticString = "") {
        if isDigested {
            out.append(literal: prefix)
            if digestOffsetCount == digestOffsetCapacity { growDigestOffsets() }
            digestOffsets[digestOffsetCount] = out.count
            digestOffsetCount += 1
            out.append(literal: "000000000000")  // `digestLength` zeros, filled in by `finish`
        } else {
            out.append(explicitID)
        }
        if !nesting.isEmpty { out.append(nesting) }
        out.append(literal: suffix)
    }

    private mutating func growDigestOffsets() {
        let larger = UnsafeMutablePointer<Int>.allocate(capacity: 2 * digestOffsetCapacity)
        larger.update(from: digestOffsets, count: digestOffsetCount)
        digestOffsets.deallocate()
        digestOffsets = larger
        digestOffsetCapacity *= 2
    }

    /// Writes `#id ` , the scope of a style rule that selects only this image's elements.
    package mutating func appendScope(to out: inout TextBuffer) {
        out.append(byte: UInt8(ascii: "#"))
        append(to: &out)
        out.append(byte: UInt8(ascii: " "))
    }

    /// The finished document: its bytes, with the digest written in every id that carries it.
    package func finish(_ out: borrowing TextBuffer) -> [UInt8] {
        var bytes = out.bytes
        guard isDigested, digestOffsetCount > 0 else { return bytes }
        bytes.withUnsafeMutableBytes { buffer in
            let digest = Self.hash(UnsafeRawBufferPointer(buffer)) >> UInt64(64 - 4 * Self.digestLength)
            // The twelve hex digits as two words, in the order of the text, stored whole in each
            // place (a byte at a time costs more than the hash of a small image).
            var head: UInt64 = 0
            var tail: UInt32 = 0
            for position in 0..<Self.digestLength {
                let nibble = UInt8(truncatingIfNeeded: digest >> UInt64(4 * (Self.digestLength - 1 - position))) & 0xF
                let digit = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                if position < 8 {
                    head |= UInt64(digit) << UInt64(8 * position)
                } else {
                    tail |= UInt32(digit) << UInt32(8 * (position - 8))
                }
            }
            for index in 0..<digestOffsetCount {
                let offset = digestOffsets[index]
                buffer.storeBytes(of: head.littleEndian, toByteOffset: offset, as: UInt64.self)
                buffer.storeBytes(of: tail.littleEndian, toByteOffset: offset + 8, as: UInt32.self)
            }
        }
        return bytes
    }

    /// A 64-bit hash of bytes: FNV-1a's step (xor, then multiply by its prime) taken a 64-bit
    /// word at a time in four interleaved lanes, the lanes then mixed by MurmurHash3's
    /// finaliser so every bit of the result depends on every byte.
    ///
    /// Not FNV-1a itself, which takes a byte a step: this runs for every SVG, and a byte a step
    /// costs about five instructions a byte, 45K for the 8.8 KB of `tally render 9999`, a tenth
    /// of what its whole SVG may cost (BENCHMARKS.md); this costs about half an instruction a
    /// byte. Words are read little-endian, so the digest is the same on every machine. Not for
    /// anything an attacker could aim at.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime = FNV1a.prime
        var lanes = (
            FNV1a.offsetBasis, FNV1a.offsetBasis ^ 0x9e37_79b9_7f4a_7c15, FNV1a.offsetBasis ^ 0x3c6e_f372_fe94_f82a,
            FNV1a.offsetBasis ^ 0xdaa6_6d2c_7ddf_743f
        )
        func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes.0 = (lanes.0 ^ word(offset)) &* prime
            lanes.1 = (lanes.1 ^ word(offset + 8)) &* prime
            lanes.2 = (lanes.2 ^ word(offset + 16)) &* prime
            lanes.3 = (lanes.3 ^ word(offset + 24)) &* prime
            offset += 32
        }
        while offset < bytes.count {
            lanes.0 = (lanes.0 ^ UInt64(bytes[offset])) &* prime
            offset += 1
        }
        func rotated(_ value: UInt64, _ bits: UInt64) -> UInt64 { value << bits | value >> (64 - bits) }
        var hash = lanes.0 ^ rotated(lanes.1, 16) ^ rotated(lanes.2, 32) ^ rotated(lanes.3, 48) ^ UInt64(bytes.count)
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
