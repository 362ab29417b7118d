/// A region's command line cut into arguments as a POSIX shell cuts a simple command, so a
/// region reads as the command a user would type (SPEC §8): blanks separate words; `'…'` keeps
/// everything inside as it is; `"…"` keeps everything but `\"` and `\\`; a backslash outside
/// quotes keeps the next character. Nothing is expanded: no variables, globs or `~`.
package enum CommandWords {
    /// The words of `text`.
    /// - Throws: the one-line reason when a quote is left open or the line ends in a backslash.
    package static func split(_ text: String) throws(CommandWordsError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                while true {
                    guard let next = iterator.next() else { throw .unclosedQuote("'") }
                    if next == "'" { break }
                    word.unicodeScalars.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = iterator.next() else { throw .unclosedQuote("\"") }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { throw .unclosedQuote("\"") }
                        if escaped != "\"" && escaped != "\\" { word.unicodeScalars.append(next) }
                        word.unicodeScalars.append(escaped)
                        continue
                    }
                    word.unicodeScalars.append(next)
                }
            case "\\":
                inWord = true
                guard let escaped = iterator.next() else { throw .trailingBackslash }
                word.unicodeScalars.append(escaped)
            default:
                inWord = true
                word.unicodeScalars.append(scalar)
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// `words` written so that `split` gives them back: plain words as they are, others in
    /// single quotes (a single quote itself as `'\''`).
    package static func join(_ words: [String]) -> String {
        words.map { word in
            let plain =
                !word.isEmpty
                && word.unicodeScalars.allSatisfy { scalar in
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-_./,:=+@%#".unicodeScalars.contains(scalar)
                }
            if plain { return word }
            return "'" + word.replacingAll("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}

/// Why a command line cannot be cut into words.
package enum CommandWordsError: Error, Equatable, Sendable {
    case unclosedQuote(Character)
    case trailingBackslash

    /// The one-line message.
    package var message: String {
        switch self {
        case .unclosedQuote(let quote): "the command has an unclosed \(quote) quote"
        case .trailingBackslash: "the command ends in a backslash"
        }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
