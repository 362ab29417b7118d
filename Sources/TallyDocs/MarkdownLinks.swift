/// CommonMark's links as far as regions care (SPEC §8): the parts of a link that the page shows
/// as text, never as HTML. A link's destination and title (§6.3), and a reference definition's
/// (§4.7), are read as a string: a comment there is text in an attribute. So is an image's
/// description, which the page shows as the `alt` text. Each function follows cmark's reading
/// (`inlines.c`, `scanners.re`): it returns the index after what it read in `text`, or nil.
enum LinkSyntax {
    /// The most bytes a link label holds (CommonMark §6.3: 999).
    static let longestLabel = 999

    /// After a link text's `]` at `start - 1`: `(`, a destination, a title, `)`.
    static func inlineLinkEnd(_ text: [UInt8], at start: Int) -> Int? {
        guard start < text.count, text[start] == UInt8(ascii: "(") else { return nil }
        let destinationStart = skipSpaceCharacters(text, from: start + 1)
        guard let destinationEnd = destination(text, at: destinationStart) else { return nil }
        let titleStart = skipSpaceCharacters(text, from: destinationEnd)
        // A title is apart from the destination by a blank, or it is none.
        let titleEnd = titleStart == destinationEnd ? titleStart : title(text, at: titleStart) ?? titleStart
        let close = skipSpaceCharacters(text, from: titleEnd)
        guard close < text.count, text[close] == UInt8(ascii: ")") else { return nil }
        return close + 1
    }

    /// A link label `[…]` at `start`: its content and the index after its `]`. No unescaped
    /// bracket, at most `longestLabel` bytes.
    static func label(_ text: [UInt8], at start: Int) -> (content: Range<Int>, end: Int)? {
        guard start < text.count, text[start] == UInt8(ascii: "[") else { return nil }
        var index = start + 1
        while index < text.count && index - start - 1 <= longestLabel {
            switch text[index] {
            case UInt8(ascii: "]"): return (start + 1..<index, index + 1)
            case UInt8(ascii: "["): return nil
            case UInt8(ascii: "\\"):
                index += index + 1 < text.count && isPunctuation(text[index + 1]) ? 2 : 1
            default: index += 1
            }
        }
        return nil
    }

    /// A label as references match it: case folded, blanks collapsed to one space, trimmed;
    /// nil when nothing but blanks.
    static func normalized(_ label: ArraySlice<UInt8>) -> String? {
        let words = String(decoding: label, as: UTF8.self).lowercased()
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// A reference definition at `start`, the start of a paragraph's text or of a line after
    /// another definition: `[label]: destination "title"`, to the end of its line. Its label,
    /// and the index after its line break.
    static func definition(_ text: [UInt8], at start: Int) -> (label: String, end: Int)? {
        guard let label = label(text, at: start), let name = normalized(text[label.content]),
            label.end < text.count, text[label.end] == UInt8(ascii: ":")
        else { return nil }
        let destinationStart = skipSpacesAndOneLineBreak(text, from: label.end + 1)
        guard let destinationEnd = destination(text, at: destinationStart, mayEndTheText: true),
            destinationEnd > destinationStart
        else {
            return nil
        }
        let beforeTitle = destinationEnd
        let titleStart = skipSpacesAndOneLineBreak(text, from: beforeTitle)
        var end = titleStart == beforeTitle ? beforeTitle : title(text, at: titleStart) ?? beforeTitle
        end = skipSpaces(text, from: end)
        if end < text.count && text[end] != UInt8(ascii: "\n") {
            // What follows the title is no blank: the definition ends at its destination, if
            // its line ends there.
            guard end > beforeTitle else { return nil }
            end = skipSpaces(text, from: beforeTitle)
            guard end == text.count || text[end] == UInt8(ascii: "\n") else { return nil }
        }
        return (name, min(end + 1, text.count))
    }

    /// The reference definitions at `start`, one after another: each one's label given to
    /// `each`; the index after the last (`start` where none is).
    static func definitionsEnd(_ text: [UInt8], from start: Int = 0, each: (String) -> Void) -> Int {
        var index = start
        while let definition = definition(text, at: index) {
            each(definition.label)
            index = definition.end
        }
        return index
    }

    /// A destination at `start`: `<…>` with no line break or `<` in it, or bytes with no
    /// blank or control character and balanced parentheses (at most 32 deep). It may be empty.
    /// Only a definition's may end the text (cmark reads a paragraph with its line break).
    static func destination(_ text: [UInt8], at start: Int, mayEndTheText: Bool = false) -> Int? {
        var index = start
        if index < text.count && text[index] == UInt8(ascii: "<") {
            index += 1
            while index < text.count {
                switch text[index] {
                case UInt8(ascii: ">"): return index + 1 < text.count || mayEndTheText ? index + 1 : nil
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\n"), UInt8(ascii: "<"): return nil
                default: index += 1
                }
            }
            return nil
        }
        var depth = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\\") && index + 1 < text.count && isPunctuation(text[index + 1]) {
                index += 2
            } else if byte == UInt8(ascii: "(") {
                depth += 1
                guard depth <= 32 else { return nil }
                index += 1
            } else if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
                index += 1
            } else if byte <= 0x20 || byte == 0x7F {
                if index == start && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") { return nil }
                break
            } else {
                index += 1
            }
        }
        guard index < text.count || mayEndTheText, depth == 0 else { return nil }
        return index
    }

    /// A title at `start`: `"…"`, `'…'` or `(…)`, the longest one (cmark's scanner): its closing
    /// byte is the first that no backslash stands before, or, when none closes, the last one
    /// read. A `(…)` title holds no parenthesis without a backslash.
    static func title(_ text: [UInt8], at start: Int) -> Int? {
        guard start < text.count else { return nil }
        let close: UInt8
        switch text[start] {
        case UInt8(ascii: "\""): close = UInt8(ascii: "\"")
        case UInt8(ascii: "'"): close = UInt8(ascii: "'")
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return nil
        }
        var longest: Int? = nil
        var index = start + 1
        while index < text.count {
            let byte = text[index]
            let escaped = text[index - 1] == UInt8(ascii: "\\") && index - 1 > start
            if byte == close {
                longest = index + 1
                if !escaped { return longest }
            } else if close == UInt8(ascii: ")") && byte == UInt8(ascii: "(") && !escaped {
                return longest
            }
            index += 1
        }
        return longest
    }

    static func skipSpaceCharacters(_ text: [UInt8], from start: Int) -> Int {
        var index = start
        while index < text.count && [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(text[index]) { index += 1 }
        return index
    }

    static func skipSpaces(_ text: [UInt8], from start: Int) -> Int {
        var index = start
        while index < text.count && (text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t")) {
            index += 1
        }
        return index
    }

    static func skipSpacesAndOneLineBreak(_ text: [UInt8], from start: Int) -> Int {
        let index = skipSpaces(text, from: start)
        guard index < text.count, text[index] == UInt8(ascii: "\n") else { return index }
        return skipSpaces(text, from: index + 1)
    }
}
