/// FNV-1a, 64 bits: a small, fast, well-known hash of bytes, for names and tags that must be
/// the same on every run and machine (Swift's `Hasher` is seeded per process). Not for anything
/// an attacker could aim at: it is not collision-resistant.
///
/// ```swift
/// var hash = FNV1a()
/// hash.add("137".utf8)
/// let tag = hash.value
/// ```
package struct FNV1a: Sendable {
    /// FNV's 64-bit offset basis, where a hash starts.
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// FNV's 64-bit prime.
    package static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of what was added so far.
    package var value: UInt64

    /// A hash of nothing yet, from FNV's offset basis or another start (a second, independent lane).
    package init(offsetBasis: UInt64 = FNV1a.offsetBasis) { value = offsetBasis }

    /// Adds one byte.
    @inline(__always)
    package mutating func add(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* Self.prime }

    /// Adds bytes in order.
    package mutating func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { add(byte) }
    }
}
