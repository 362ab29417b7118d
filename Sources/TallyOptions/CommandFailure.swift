/// A failure the user should read: one line on stderr and an exit code from SPEC §6.
package struct CommandFailure: Error, Equatable {
    package enum Code: Int32, Sendable {
        /// A failure with no code of its own: a parser's, or `docs --check` finding a stale
        /// region (as `diff` and `cmp` exit 1 for a difference).
        case failure = 1
        /// Bad usage or a bad value (sysexits EX_USAGE).
        case usage = 64
        /// A library the output needs is missing (EX_UNAVAILABLE): libcairo, for PNG and PDF.
        case unavailable = 69
        /// Memory ran out (EX_OSERR): an image too large for the memory the process may use
        /// (`ulimit -v`), or a library that could not be loaded for want of it. Nothing was
        /// written; a smaller image, or more memory, is the remedy.
        case outOfMemory = 71
        /// The output cannot be created (EX_CANTCREAT).
        case cannotCreate = 73
        /// Reading or writing failed (EX_IOERR).
        case io = 74
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        // One line, whatever the cause's text held.
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A message as every front end reports it, on stderr or in a server's 4xx and 5xx bodies:
    /// `tally: error: …` and a newline, on one line.
    package static func line(_ message: String) -> String {
        "tally: error: \(CommandFailure(.usage, message).message)\n"
    }

    package static func usage(_ message: String) -> CommandFailure { CommandFailure(.usage, message) }
}
