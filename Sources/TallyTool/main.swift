#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyCommands

exit(TallyCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
