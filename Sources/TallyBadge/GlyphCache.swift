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
        let contours: [[Segment]]
    }

    static let shared = GlyphCache()

    private let lock = ProcessLock()
    private var glyphKeys: [UInt64] = []
    private var advances: [Double] = []
    /// Each glyph's contours: `contours[firstContour[i] ..< firstContour[i] + contourCounts[i]]`.
    private var firstContour: [Int] = []
    private var contourCounts: [Int] = []
    private var contours: [[Segment]] = []
    private var kernKeys: [UInt64] = []
    private var kernValues: [Double] = []

    private init() {}

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
        let key = UInt64(scalar.value) | (face == .bold ? 1 << 32 : 0)
        lock.lock()
        let (index, found) = Self.position(of: key, in: glyphKeys)
        if found {
            var set: [[Segment]] = []
            set.reserveCapacity(contourCounts[index])
            for contour in firstContour[index]..<(firstContour[index] + contourCounts[index]) {
                set.append(contours[contour])
            }
            let entry = Entry(advance: advances[index], contours: set)
            lock.unlock()
            return entry
        }
        lock.unlock()
        guard let glyph = data.glyph(scalar) else { return nil }
        let entry = Entry(advance: glyph.advance, contours: BadgeFont.contours(glyph.outline))
        lock.lock()
        let place = Self.position(of: key, in: glyphKeys)
        if !place.found {
            glyphKeys.insert(key, at: place.index)
            advances.insert(entry.advance, at: place.index)
            firstContour.insert(contours.count, at: place.index)
            contourCounts.insert(entry.contours.count, at: place.index)
            contours += entry.contours
        }
        lock.unlock()
        return entry
    }

    /// The kerning between two characters in `face`, in font units, looked up once a pair.
    func kern(_ first: Unicode.Scalar, _ second: Unicode.Scalar, face: BadgeFont.Face, in data: BadgeFont.FaceData)
        -> Double
    {
        // 21 bits a scalar (U+10FFFF is the last), the face above them.
        let key = UInt64(first.value) << 21 | UInt64(second.value) | (face == .bold ? 1 << 42 : 0)
        lock.lock()
        let (index, found) = Self.position(of: key, in: kernKeys)
        if found {
            let value = kernValues[index]
            lock.unlock()
            return value
        }
        lock.unlock()
        let value = data.kern(first, second)
        lock.lock()
        let place = Self.position(of: key, in: kernKeys)
        if !place.found {
            kernKeys.insert(key, at: place.index)
            kernValues.insert(value, at: place.index)
        }
        lock.unlock()
        return value
    }
}
