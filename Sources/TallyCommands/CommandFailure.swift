/// A failure the user should read: one line on stderr and an exit code from SPEC §6.
public struct CommandFailure: Error, Equatable {
    public enum Code: Int32, Sendable {
        /// Bad usage or a bad value (sysexits EX_USAGE).
        case usage = 64
        /// The output cannot be created (EX_CANTCREAT).
        case cannotCreate = 73
        /// Reading or writing failed (EX_IOERR).
        case io = 74
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        // One line, whatever the cause's text held.
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    public static func usage(_ message: String) -> CommandFailure { CommandFailure(.usage, message) }
}
