import TallyPOSIX
import TallyCommands

exit(TallyCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
