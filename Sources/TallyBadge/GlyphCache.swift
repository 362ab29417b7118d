import TallyGeometry

/// The glyphs and kerning pairs a process has set, read once: a badge's text is read from the
/// face's outline strings (`BadgeFont.Glyph.outline`), about 30K instructions a glyph, and a
/// server sets the same few glyphs (a label's, the digits) in every request. The cache holds each
/// glyph's advance and its contours in font units, by face and scalar, and each pair's kerning,
/// for the life of the process: at most the face's few thousand glyphs, a few hundred bytes each,
/// and the pairs its texts hold.
///
/// Sorted parallel arrays of types every build already has, not dictionaries: a new generic type
/// is made by the runtime in every process that touches its kind, and a `tally render` pays for
/// it (15K instructions in `render 9999`).
final class GlyphCache: @unchecked Sendable {
    struct Entry {
        let advance: Double
        /// A slice of the cache's tables: the glyph's contours, not copied.
        let contours: ArraySlice<[Segment]>
    }

    static let shared = GlyphCache()

    /// Everything the cache holds, in one stored property read once a lookup: each read of a
    /// class's stored `var` is checked at run time for exclusive access (`swift_beginAccess`, about
    /// 90 instructions), and a badge's glyphs read the tables about 200 times a request (22K of a
    /// drawn badge's instructions, as separate properties). A copy of the struct shares the
    /// arrays' storage, so reading it is a few retains.
    private struct Tables {
        var glyphKeys: [UInt64] = []
        var advances: [Double] = []
        /// Each glyph's contours: `contours[firstContour[i] ..< firstContour[i] + contourCounts[i]]`.
        var firstContour: [Int] = []
        var contourCounts: [Int] = []
        var contours: [[Segment]] = []
        var kernKeys: [UInt64] = []
        var kernValues: [Double] = []

        mutating func insert(glyph key: UInt64, _ entry: Entry) {
            let place = GlyphCache.position(of: key, in: glyphKeys)
            guard !place.found else { return }
            glyphKeys.insert(key, at: place.index)
            advances.insert(entry.advance, at: place.index)
            firstContour.insert(contours.count, at: place.index)
            contourCounts.insert(entry.contours.count, at: place.index)
            contours += entry.contours
        }

        mutating func insert(kern key: UInt64, _ value: Double) {
            let place = GlyphCache.position(of: key, in: kernKeys)
            guard !place.found else { return }
            kernKeys.insert(key, at: place.index)
            kernValues.insert(value, at: place.index)
        }
    }

    private let lock = ProcessLock()
    private var tables = Tables()

    private init() {}

    /// The tables as they are now.
    private func snapshot() -> Tables {
        lock.lock()
        defer { lock.unlock() }
        return tables
    }

    /// A glyph's key: its scalar, and the face above it.
    private static func key(_ scalar: Unicode.Scalar, _ face: BadgeFont.Face) -> UInt64 {
        UInt64(scalar.value) | (face == .bold ? 1 << 32 : 0)
    }

    /// Where `key` is in the sorted `keys`, or where it would go.
    private static func position(of key: UInt64, in keys: [UInt64]) -> (index: Int, found: Bool) {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return (low, low < keys.count && keys[low] == key)
    }

    /// The glyph of `scalar` in `face`, parsed the first time it is asked for; nil where the face
    /// has none.
    func glyph(_ scalar: Unicode.Scalar, face: BadgeFont.Face, in data: BadgeFont.FaceData) -> Entry? {
        let key = Self.key(scalar, face)
        let tables = snapshot()
        let (index, found) = Self.position(of: key, in: tables.glyphKeys)
        if found {
            let first = tables.firstContour[index]
            return Entry(
                advance: tables.advances[index],
                contours: tables.contours[first..<(first + tables.contourCounts[index])])
        }
        guard let glyph = data.glyph(scalar) else { return nil }
        let entry = Entry(advance: glyph.advance, contours: BadgeFont.contours(glyph.outline)[...])
        lock.lock()
        self.tables.insert(glyph: key, entry)
        lock.unlock()
        return entry
    }

    /// The advance of `scalar`'s glyph in `face`, in font units; nil where the face has none. A
    /// text's width needs no outline, and copying a glyph's contours out of the tables was most
    /// of a lookup's work.
    func advance(_ scalar: Unicode.Scalar, face: BadgeFont.Face, in data: BadgeFont.FaceData) -> Double? {
        let key = Self.key(scalar, face)
        let tables = snapshot()
        let (index, found) = Self.position(of: key, in: tables.glyphKeys)
        return found ? tables.advances[index] : glyph(scalar, face: face, in: data)?.advance
    }

    /// The kerning between two characters in `face`, in font units, looked up once a pair.
    func kern(_ first: Unicode.Scalar, _ second: Unicode.Scalar, face: BadgeFont.Face, in data: BadgeFont.FaceData)
        -> Double
    {
        // 21 bits a scalar (U+10FFFF is the last), the face above them.
        let key = UInt64(first.value) << 21 | UInt64(second.value) | (face == .bold ? 1 << 42 : 0)
        let tables = snapshot()
        let (index, found) = Self.position(of: key, in: tables.kernKeys)
        if found { return tables.kernValues[index] }
        let value = data.kern(first, second)
        lock.lock()
        self.tables.insert(kern: key, value)
        lock.unlock()
        return value
    }
}
