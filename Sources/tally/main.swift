import Foundation
import TallyCommands

exit(Tally.main(arguments: Array(CommandLine.arguments.dropFirst())))
