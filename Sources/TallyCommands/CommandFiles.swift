import TallyDocs
import TallyOptions

/// The files one drawing command (`render`, `badge`, `gallery`) writes, named and drawn as a
/// docs region's are (SPEC §6, §8), so a command and a region that say the same write the same
/// bytes: `ImagePlan` names the files, and `RenderOptions.variant` gives each its options.
///
/// - `--scale 1,2` writes one PNG a density: `a.png` and `a@2x.png`.
/// - A PNG with `--theme auto` writes a light and a dark file, `a.png` and `a-dark.png`, each
///   transparent unless a background is given. To standard output it is one file, the light
///   one on paper, with a note.
enum CommandFiles {
    /// `--scale` as written, cut at commas: one value, a list of densities, or none.
    static func scales(_ given: String?) -> [String] {
        guard let given else { return [] }
        return given.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether a theme as given follows the viewer's colour scheme: `auto`, or no theme for an
    /// SVG, whose default is auto (the theme's help says so).
    static func follows(_ theme: String?, format: DocsImageFormat) -> Bool {
        theme == "auto" || (theme == nil && format == .svg)
    }

    /// Writes a command's files where it writes more than one, and says whether it did; false,
    /// having done nothing, for a command that writes one file as it always has.
    ///
    /// Every file is drawn before any is written, so a bad value leaves nothing behind.
    /// - Parameters:
    ///   - format: the format's name, as `-f` or `-o`'s extension chose it.
    ///   - options: the options the command takes (made only when several files are written).
    ///   - draw: the command's bytes for a file's options.
    static func write(
        output: String?, format: String, given: [RenderOption: String],
        among options: @autoclosure () -> [RenderOption],
        draw: ([RenderOption: String]) throws(CommandFailure) -> [UInt8]
    ) throws(CommandFailure) -> Bool {
        let scales = self.scales(given[.scale])
        let imageFormat = DocsImageFormat(rawValue: format)
        let pair = imageFormat == .png && given[.theme] == "auto"
        guard scales.count > 1 || pair else { return false }
        let list = "\(RenderOption.scale.flag) '\(Values.printable(given[.scale] ?? ""))' is a list of densities"
        guard let imageFormat else { throw .usage("\(list), one PNG each; \(format) takes one scale") }
        // Standard output, a device or a descriptor (`/proc/self/fd/1`) holds one file.
        guard let output, output != "-", !output.hasPrefix("/dev/"), Output.namedDescriptor(output) == nil else {
            if scales.count > 1 { throw .usage("\(list), one file each; give -o with the path of the 1x file") }
            return false
        }
        let request = ImageRequest(
            output: output, format: imageFormat, followsColorScheme: pair, scales: scales, alt: "")
        let files: [PlannedImage]
        do {
            files = try ImagePlan.commandFiles(for: request)
        } catch {
            throw .usage(error.message)
        }
        var drawn: [(path: String, bytes: [UInt8])] = []
        for file in files {
            let variant = RenderOptions.variant(
                given, theme: file.theme, scale: file.scale ?? scales.first, among: options())
            drawn.append((file.path, try draw(variant)))
        }
        for file in drawn { try Output.writeAtomically(file.bytes, to: file.path) }
        return true
    }
}
