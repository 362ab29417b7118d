#if Cairo
/// The two checksums a PNG file carries: CRC-32 (ISO 3309, as PNG and gzip use it) at the end of
/// every chunk, and Adler-32 (RFC 1950) at the end of the zlib stream in IDAT.
///
/// Written here rather than called in zlib: linking libz made the dynamic loader map it, and
/// search it before libstdc++ for every symbol it binds, at every start of every command (about
/// 170K instructions of `tally render 1 -f svg`'s 2.43M, measured with callgrind; BENCHMARKS.md),
/// for two loops that only PNG files run. The tests check both against zlib's.
enum Checksums {
    /// CRC-32 of `bytes`, continuing from `crc` (0 to start).
    static func crc32(_ bytes: UnsafeBufferPointer<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        let table = crcTable
        var value = ~crc
        for byte in bytes {
            value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
        }
        return ~value
    }

    /// The table of the reflected polynomial 0xEDB88320, a byte at a time.
    private static let crcTable: [UInt32] = (0..<256).map { (index: UInt32) in
        var value = index
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// Adler-32 of `bytes`: two sums modulo 65,521, reduced every 5,552 bytes (the most that
    /// cannot overflow 32 bits, as zlib does).
    static func adler32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var sum: UInt32 = 1
        var sumOfSums: UInt32 = 0
        var index = 0
        while index < bytes.count {
            let end = min(index + 5552, bytes.count)
            while index < end {
                sum &+= UInt32(bytes[index])
                sumOfSums &+= sum
                index += 1
            }
            sum %= 65521
            sumOfSums %= 65521
        }
        return sumOfSums << 16 | sum
    }
}
#endif
