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

    /// User text inside an error message: control characters shown as `?` so the message stays one line.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
    }
}
