import TallyPOSIX
import TallyServer

// `tally-server`, run by `tally serve`: the options are tally serve's. Before anything opens a
// file, descriptors 0, 1 and 2 are never handed out again.
reserveStandardDescriptors()
exit(await ServerMain.main(arguments: Array(CommandLine.arguments.dropFirst())))
