import ArgumentParser
import TallyCommands
import TallyOptions
import TallyPOSIX
import TallyServer

/// `tally-server`: the program `tally serve` runs, with the options of `tally serve` (the
/// command line's own declaration; `tally serve` has checked them already).
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally-server",
        abstract: "Serve tally images over HTTP (what `tally serve` runs; see tally serve --help).",
        version: tallyVersion
    )

    @OptionGroup var options: ServeOptions
}

// Before anything opens a file, descriptors 0, 1 and 2 are never handed out again.
reserveStandardDescriptors()
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    let command = try ServerCommand.parse(arguments)
    status = await ServerMain.run(try command.options.settings())
} catch {
    status = TallyCommand.report(error, of: ServerCommand.self, arguments: arguments)
}
exit(status)
