import TallyPOSIX

/// A drawn file of a region: its plan, and its size as the page lays it out.
package struct DrawnImage: Equatable, Sendable {
    package var plan: PlannedImage
    package var bytes: [UInt8]
    /// The size in CSS pixels (the file's pixels over its density), nil when it cannot be read.
    package var size: (width: Int, height: Int)?

    package init(plan: PlannedImage, bytes: [UInt8], size: (width: Int, height: Int)?) {
        (self.plan, self.bytes, self.size) = (plan, bytes, size)
    }

    package static func == (lhs: DrawnImage, rhs: DrawnImage) -> Bool {
        lhs.plan == rhs.plan && lhs.bytes == rhs.bytes && lhs.size?.width == rhs.size?.width
            && lhs.size?.height == rhs.size?.height
    }
}

/// The markup a region's body holds (SPEC §8).
package enum ImageReference {
    /// An `<img>` with `alt`, `width` and `height` (so the page does not move as it loads), a
    /// `srcset` when there are densities, inside a `<picture>`, with a `prefers-color-scheme`
    /// source for each scheme file where there are two. One line, so it fits a region inline
    /// as well as on its own line, in Markdown (inline HTML in a paragraph, never an HTML block
    /// that runs past the region) and in HTML.
    ///
    /// - Parameters:
    ///   - images: the region's files, in `ImagePlan.images` order.
    ///   - densities: the density descriptor of each scale (`1x`, `2x`), one for each file of a
    ///     scheme; empty for a single density.
    package static func html(_ images: [DrawnImage], alt: String, densities: [String]) -> String {
        guard let first = images.first else { return "" }
        func files(_ scheme: PlannedImage.Scheme) -> [DrawnImage] { images.filter { $0.plan.scheme == scheme } }
        func srcset(_ files: [DrawnImage]) -> String {
            guard densities.count == files.count, files.count > 1 else { return url(files[0].plan.reference) }
            return zip(files, densities).map { url($0.plan.reference) + " " + $1 }.joined(separator: ", ")
        }
        let shown = files(first.plan.scheme)
        var img = "<img src=\"\(url(first.plan.reference))\""
        if shown.count > 1 { img += " srcset=\"\(srcset(shown))\"" }
        img += " alt=\"\(attribute(alt))\""
        if let size = first.size { img += " width=\"\(size.width)\" height=\"\(size.height)\"" }
        img += ">"
        let dark = files(.dark)
        // Always in a `<picture>`: a line that is one `<img …>` tag alone starts a CommonMark
        // HTML block of type 7, which runs to the next blank line and swallows the heading or
        // list after the region's closer; a line that starts `<picture><img` is a paragraph of
        // inline HTML, which the closer's comment ends (SPEC §8, "The page renders the same
        // outside regions").
        guard !dark.isEmpty else { return "<picture>" + img + "</picture>" }
        var picture = "<picture>"
        picture += "<source media=\"(prefers-color-scheme: dark)\" srcset=\"\(srcset(dark))\">"
        let light = files(.light)
        if first.plan.scheme == .asWritten && !light.isEmpty {
            picture += "<source media=\"(prefers-color-scheme: light)\" srcset=\"\(srcset(light))\">"
        }
        return picture + img + "</picture>"
    }

    /// DocC's image reference: `![alt](name)`, the file's name without its extension and
    /// variants, which DocC finds in the catalogue with its `~dark` and `@2x` siblings.
    package static func docc(_ images: [DrawnImage], alt: String) -> String {
        guard let first = images.first else { return "" }
        var name = Substring(first.plan.reference)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: ".") { name = name[..<dot] }
        if let at = name.firstIndex(of: "@") { name = name[..<at] }
        var escapedAlt = ""
        for character in alt {
            if "[]\\".contains(character) { escapedAlt.append("\\") }
            escapedAlt.append(character)
        }
        return "![\(escapedAlt)](\(url(String(name))))"
    }

    /// A path as a URL: letters, digits and `-._~/@` as they are, every other byte as `%XX`.
    package static func url(_ path: String) -> String {
        var result = ""
        // The bytes of the file's name (`ByteText`): a byte that is not UTF-8 is escaped as itself.
        for byte in ByteText.bytes(path) {
            let kept =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-._~/@".utf8.contains(byte)
            if kept {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                result += "%"
                result.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0xF)]))
            }
        }
        return result
    }

    /// Text for a double-quoted attribute: `&`, `<`, `>` and `"` as references, line breaks as
    /// spaces. Read as bytes: every byte it changes is ASCII, so the rest of the UTF-8 stays.
    package static func attribute(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes += "&amp;".utf8
            case UInt8(ascii: "<"): bytes += "&lt;".utf8
            case UInt8(ascii: ">"): bytes += "&gt;".utf8
            case UInt8(ascii: "\""): bytes += "&quot;".utf8
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The size of a drawn file, read from its own bytes.
package enum ImageSize {
    /// A PNG's pixels over `scale`, or an SVG's `width` and `height`, each rounded to a whole
    /// CSS pixel; nil when the bytes hold neither.
    package static func of(_ bytes: [UInt8], format: DocsImageFormat, scale: Double) -> (width: Int, height: Int)? {
        switch format {
        case .png:
            guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
            func word(_ at: Int) -> Double {
                Double(bytes[at...at + 3].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            }
            let divisor = scale > 0 ? scale : 1
            return (Int((word(16) / divisor).rounded()), Int((word(20) / divisor).rounded()))
        case .svg:
            guard let start = find(Array("<svg".utf8), in: bytes, from: 0),
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ">"))
            else { return nil }
            let tag = Array(bytes[start..<end])
            guard let width = attribute(" width=\"", in: tag), let height = attribute(" height=\"", in: tag) else {
                return nil
            }
            return (Int(width.rounded()), Int(height.rounded()))
        }
    }

    private static func attribute(_ name: String, in tag: [UInt8]) -> Double? {
        guard let start = find(Array(name.utf8), in: tag, from: 0) else { return nil }
        let valueStart = start + name.utf8.count
        guard let end = tag[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return Double(String(decoding: tag[valueStart..<end], as: UTF8.self))
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index...].starts(with: needle) { return index }
            index += 1
        }
        return nil
    }
}
