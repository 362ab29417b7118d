import TallyPOSIX
import TallyServer

// `tally-server`, run by `tally serve`: the options are tally serve's.
exit(await ServerMain.main(arguments: Array(CommandLine.arguments.dropFirst())))
