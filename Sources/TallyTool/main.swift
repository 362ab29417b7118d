import TallyCommands
import TallyPOSIX

// Before anything opens a file: descriptors 0, 1 and 2 are never handed out again.
reserveStandardDescriptors()
// Every byte of every argument kept (a file name need not be UTF-8).
exit(TallyCommand.main(arguments: ByteText.arguments()))
