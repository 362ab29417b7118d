import TallyCommands
import TallyPOSIX

exit(TallyCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
