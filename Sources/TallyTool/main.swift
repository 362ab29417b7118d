import TallyCommands
import TallyPOSIX

// Before anything opens a file: descriptors 0, 1 and 2 are never handed out again.
reserveStandardDescriptors()
exit(TallyCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
