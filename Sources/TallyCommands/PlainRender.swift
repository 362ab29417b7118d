import TallyGeometry
import TallyOptions
import TallyRender

/// `tally render` read without swift-argument-parser: a count, `-o`, `-f` and any render option
/// of the table (`--size 512`, `--size=512`, `--caption`, `--no-caption`, `--no-inset`), because the parser's
/// reflection over every option (protocol conformance lookups and type demangling) is most of
/// a short run's cost.
///
/// It reads the arguments only; everything after that is `Render.write`, the code the parsed
/// command runs too, so the bytes, messages and exit codes are the same (a test compares them
/// for every format). Anything it does not take (help, a terminal option, an unknown or
/// repeated option, a value that looks like an option after `-o` or `-f`) goes to the parser,
/// and so does the terminal preview. `tally badge` is read the same way, over the badge's
/// options (`TallyCommand.main`, `BadgeCommand.run`).
package struct PlainRender {
    let count: String
    let output: String?
    let format: String?
    let given: [RenderOption: String]

    /// The render these arguments ask for, or nil when the parser must read them.
    package init?(_ arguments: [String]) {
        guard arguments.first == "render", let read = Self.read(arguments.dropFirst(), options: RenderOption.all)
        else { return nil }
        (count, output, format, given) = (read.count, read.output, read.format, read.given)
    }

    /// A count, `-o`, `-f` and any of `options`, read as the parser reads them, or nil when
    /// the parser must read them (anything else, a repeated option, help). `render` takes every
    /// render option; a docs region's `badge` reads its own (SPEC §8) the same way.
    static func read(_ arguments: ArraySlice<String>, options: @autoclosure () -> [RenderOption]) -> (
        count: String, output: String?, format: String?, given: [RenderOption: String]
    )? {
        var count: String?
        var output: String?
        var format: String?
        var given: [RenderOption: String] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            // `--name=value`, or `--name value`.
            let (name, attached) = Self.split(argument)
            func value(unconditional: Bool) -> String? {
                if let attached { return attached }
                guard index < arguments.endIndex else { return nil }
                let value = arguments[index]
                // For -o and -f the parser reads "-" as a value and anything else starting with
                // "-" as an option; render options take any value, as the parser's do.
                guard unconditional || value == "-" || !value.hasPrefix("-") else { return nil }
                index += 1
                return value
            }
            // `--no-caption`, `--no-inset`: the switch given as off.
            if let option = RenderOption.invertible.first(where: { $0.inversion == name }) {
                guard options().contains(option), attached == nil, given[option] == nil else { return nil }
                given[option] = "false"
                continue
            }
            switch name {
            case "-o", "--output":
                guard output == nil, let path = value(unconditional: false) else { return nil }
                output = path
            case "-f", "--format":
                guard format == nil, let text = value(unconditional: false) else { return nil }
                format = text
            case _ where name.hasPrefix("--"):
                guard let option = RenderOption.named(String(name.dropFirst(2)), among: options()),
                    given[option] == nil
                else {
                    return nil
                }
                if option.isSwitch {
                    guard attached == nil else { return nil }
                    given[option] = "true"
                } else {
                    guard let text = value(unconditional: true) else { return nil }
                    given[option] = text
                }
            default:
                guard count == nil, !argument.hasPrefix("-") else { return nil }
                count = argument
            }
        }
        guard let count else { return nil }
        return (count, output, format, given)
    }

    /// `--size=512` → (`--size`, `512`); anything else → (itself, nil).
    static func split(_ argument: String) -> (Substring, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument[...], nil) }
        return (argument[..<equals], String(argument[argument.index(after: equals)...]))
    }

    /// Writes the image as the parsed `render` does; false, having done nothing, where the
    /// parsed command must run instead (the terminal preview).
    func run() throws(CommandFailure) -> Bool {
        let count = try Values.count(count)
        // The preview (`-f term`, or neither -f nor -o on a terminal): the parsed command draws it.
        guard let format = try Render.chosenFormat(format, output: output).output else { return false }
        try Render.write(count, output: output, format: format, given: given)
        return true
    }
}
