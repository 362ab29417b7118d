import TallyGeometry

/// Reading the values of the command line, with errors that name the value and what is allowed.
enum Values {
    static let countRange = "a whole number from 0 to \(TallyCount.maximum)"

    static func count(_ text: String, what: String = "count") throws(CommandFailure) -> TallyCount {
        switch TallyCount.parse(text) {
        case .success(let count): return count
        case .failure(.negative): throw .usage("\(what) '\(text)' is negative; it must be \(countRange)")
        case .failure(.tooLarge): throw .usage("\(what) '\(text)' is too large; it must be \(countRange)")
        case .failure(.empty), .failure(.notANumber):
            throw .usage("\(what) '\(printable(text))' is not a number; it must be \(countRange)")
        }
    }

    /// The format after -f, else the extension of -o, else `fallback` (standard output).
    static func format<Format: RawRepresentable & CaseIterable>(explicit: Format?, output: String?, fallback: Format,
                                                                fromExtension: (String) -> Format?) throws(CommandFailure) -> Format
    where Format.RawValue == String {
        if let explicit { return explicit }
        guard let output, output != "-" else { return fallback }
        guard let format = fromExtension(output) else {
            let names = Format.allCases.map(\.rawValue)
            throw .usage("cannot tell the format of '\(printable(output))'; use -f \(names.dropLast().joined(separator: ", ")) or \(names.last!), or a path ending in one of them")
        }
        return format
    }

    /// User text inside an error message: control characters shown as `?` so the message stays one line.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
    }
}
