import TallyPOSIX

/// The image formats a region may write: the ones an `<img>` shows.
package enum DocsImageFormat: String, Sendable, Equatable {
    case svg, png
}

/// What a region's command asks for, as the command line read it: the planner decides from it
/// which files to write and how to refer to them, and never reads options itself.
package struct ImageRequest: Equatable, Sendable {
    /// `-o` as written: a path relative to the document.
    package var output: String
    /// The format the command writes.
    package var format: DocsImageFormat
    /// Whether the image's theme is `auto` (given, or by default), whose colours follow the
    /// viewer's scheme: the region then writes a light and a dark file for `<picture>`.
    package var followsColorScheme: Bool
    /// `--scale` as written, cut at commas: more than one is a list of densities. Empty when
    /// no scale was given.
    package var scales: [String]
    /// The reference's alternative text: the picture's own title and description.
    package var alt: String

    package init(output: String, format: DocsImageFormat, followsColorScheme: Bool, scales: [String], alt: String) {
        (self.output, self.format, self.followsColorScheme, self.scales, self.alt) =
            (output, format, followsColorScheme, scales, alt)
    }
}

/// One file a region writes: where, and what differs from the command as written.
package struct PlannedImage: Equatable, Sendable, Hashable {
    /// The colour scheme a file is for.
    package enum Scheme: Sendable, Hashable {
        /// The command's own theme: the `<img>` itself.
        case asWritten
        /// The light file: the `<img>` of a PNG or DocC pair, the light `<source>` of an SVG.
        case light
        /// The dark file, for `prefers-color-scheme: dark`.
        case dark
    }

    /// The file's path from the folder tally runs in: the document's folder joined to `-o`.
    package var path: String
    /// The file's path from the document, as the reference writes it.
    package var reference: String
    /// The scheme it is drawn for.
    package var scheme: Scheme
    /// The theme it is drawn in instead of the command's (`light`, `dark`), or nil.
    package var theme: String?
    /// The one scale it is drawn at instead of the command's list, or nil.
    package var scale: String?
}

/// Where a region's files go and how the document names them (SPEC §8).
package enum ImagePlan {
    /// The files `request` writes, the first of them the one the reference's `<img>` shows.
    ///
    /// - A theme that follows the colour scheme gives a pair. A PNG, which cannot switch, is
    ///   drawn light (`-o`'s name) and dark (`-dark`). An SVG keeps the command's own file,
    ///   which switches by the viewer's scheme, for viewers without `<picture>`, and adds
    ///   `-light` and `-dark` files that follow the page's scheme in `<picture>`.
    /// - A list of scales gives one file a density: the scale 1 (else the first) at `-o`'s
    ///   name, every other at `@{scale}x`.
    /// - In a DocC catalogue the names are DocC's: `~dark` and `@2x`, with no auto file.
    ///
    /// - Parameters:
    ///   - documentFolder: the folder of the document that holds the region, from where tally
    ///     runs (`""` for the current folder).
    ///   - inDocC: whether the document is in a `.docc` catalogue.
    ///   - climb: how many folders `-o` may climb above the document's: in a `.docc`
    ///     catalogue, up to the catalogue (SPEC §8: there the inside is the catalogue).
    /// - Throws: the one-line reason `-o` or the scales cannot be used.
    package static func images(
        for request: ImageRequest, documentFolder: String, inDocC: Bool, climb: Int = 0
    ) throws(PlanError) -> [PlannedImage] {
        let relative = try normalized(request.output, climb: climb)
        guard let dot = relative.lastIndex(of: "."), relative[dot...].count > 1,
            !relative[dot...].contains("/")
        else {
            throw PlanError("-o '\(relative)' has no extension; name the file as it will be served (.svg or .png)")
        }
        let pathExtension = String(relative[dot...])
        // A region writes only images (SPEC §8): its files end in the format's extension, so
        // no -o can name a document, a script or a configuration file.
        guard pathExtension.lowercased() == "." + request.format.rawValue else {
            throw PlanError(
                "-o '\(relative)' ends in \(pathExtension); a region that draws \(request.format.rawValue) writes a .\(request.format.rawValue) file"
            )
        }
        return try files(
            stem: String(relative[..<dot]), pathExtension: pathExtension, request: request, inDocC: inDocC
        ) { name in (joinClimbing(documentFolder, name), name) }
    }

    /// The files the command line writes for `request` (SPEC §6): a region's names, with `-o`
    /// used as given (absolute, or above the current folder: the command line writes where it is
    /// told), so a command and a region that say the same write the same files. Only a PNG pair
    /// and a list of scales give more than one; the command line sets `followsColorScheme` for
    /// a PNG alone, since an SVG's own file follows the scheme.
    package static func commandFiles(for request: ImageRequest) throws(PlanError) -> [PlannedImage] {
        let output = request.output
        let nameStart = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
        var dot = output[nameStart...].lastIndex(of: ".") ?? output.endIndex
        if dot == nameStart { dot = output.endIndex }
        return try files(
            stem: String(output[..<dot]), pathExtension: String(output[dot...]), request: request, inDocC: false
        ) { name in (name, name) }
    }

    /// The files of `request` whose `-o` is `stem + pathExtension`, each placed by `place`
    /// (its path, and its name in the reference).
    static func files(
        stem: String, pathExtension: String, request: ImageRequest, inDocC: Bool,
        place: (String) -> (path: String, reference: String)
    ) throws(PlanError) -> [PlannedImage] {
        let densities = try self.densities(request, inDocC: inDocC)
        let schemes: [(PlannedImage.Scheme, theme: String?, suffix: String)]
        switch (request.followsColorScheme, request.format, inDocC) {
        case (false, _, _): schemes = [(.asWritten, nil, "")]
        case (true, .svg, false):
            schemes = [(.asWritten, nil, ""), (.light, "light", "-light"), (.dark, "dark", "-dark")]
        case (true, _, false): schemes = [(.light, "light", ""), (.dark, "dark", "-dark")]
        case (true, _, true): schemes = [(.light, "light", ""), (.dark, "dark", "~dark")]
        }
        var images: [PlannedImage] = []
        for scheme in schemes {
            for density in densities {
                let placed = place(stem + scheme.suffix + density.suffix + pathExtension)
                images.append(
                    PlannedImage(
                        path: placed.path, reference: placed.reference, scheme: scheme.0, theme: scheme.theme,
                        scale: density.scale))
            }
        }
        return images
    }

    /// The densities of a request: the scale each file is drawn at (nil: as written) and the
    /// suffix of its name.
    static func densities(_ request: ImageRequest, inDocC: Bool) throws(PlanError) -> [(scale: String?, suffix: String)]
    {
        guard request.scales.count > 1 || inDocC else { return [(nil, "")] }
        if request.scales.isEmpty { return [(nil, "")] }
        if request.format == .svg && request.scales.count > 1 {
            throw PlanError(
                "--scale '\(request.scales.joined(separator: ","))' is a list of densities, which is for PNG; an SVG is sharp at every density"
            )
        }
        var seen: Set<String> = []
        for scale in request.scales where !seen.insert(scale).inserted {
            throw PlanError("--scale lists '\(scale)' twice")
        }
        let unit = request.scales.firstIndex(where: { Double($0) == 1 }) ?? (inDocC ? nil : 0)
        return request.scales.enumerated().map { index, scale in
            let suffix = index == unit ? "" : "@\(scale)x"
            return (request.scales.count > 1 ? scale : nil, suffix)
        }
    }

    /// `-o` without `.` and empty components, refused when it is absolute or climbs out of the
    /// document's folder by more than `climb` folders (kept as leading `..`).
    static func normalized(_ output: String, climb: Int = 0) throws(PlanError) -> String {
        if output.isEmpty || output == "-" {
            throw PlanError("a region writes a file: give -o with a path relative to the document")
        }
        // A NUL ends a name at the system's call (`a.svg\0x` wrote `a.svg`'s bytes to `a`), and
        // a control byte in a file's name breaks every listing that shows it.
        if let control = output.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            func hex(_ value: UInt32) -> String {
                let digits = String(value, radix: 16, uppercase: true)
                return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            }
            let shown = output.unicodeScalars.map {
                $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(hex($0.value))}" : String($0)
            }
            .joined()
            throw PlanError(
                "-o '\(shown)' holds the control character U+\(hex(control.value)); a file's name is printable text")
        }
        if output.hasPrefix("/") {
            throw PlanError("-o '\(output)' is absolute; a region's -o is relative to its document")
        }
        var components: [Substring] = []
        for component in pathComponents(output) {
            switch component {
            case ".": continue
            case "..":
                if let last = components.last, last != ".." {
                    components.removeLast()
                } else if components.count < climb {
                    components.append("..")
                } else if climb > 0 {
                    throw PlanError("-o '\(output)' leaves the catalogue; keep the images in it")
                } else {
                    throw PlanError("-o '\(output)' leaves the document's folder; keep the images beside or below it")
                }
            default: components.append(component)
            }
        }
        guard !components.isEmpty else { throw PlanError("-o '\(output)' names no file") }
        return components.joined(separator: "/")
    }

    /// `folder/name`, or `name` in the current folder.
    package static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty || folder == "." { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `folder/name` where `name` may start with `..`: each climbs out of one of the folder's
    /// own components while there is one, so `A.docc/Articles` and `../Resources/a.png` are
    /// `A.docc/Resources/a.png`.
    static func joinClimbing(_ folder: String, _ name: String) -> String {
        var folders = pathComponents(folder, omittingEmpty: false).map(String.init)
        var rest = pathComponents(name).map(String.init)
        while rest.first == "..", let last = folders.last, !last.isEmpty, last != ".", last != ".." {
            folders.removeLast()
            rest.removeFirst()
        }
        return join(folders.joined(separator: "/"), rest.joined(separator: "/"))
    }

    /// How deep a folder is below the nearest `.docc` catalogue on its path (0 for the
    /// catalogue itself), or nil outside one.
    package static func depthInDocC(_ folder: String) -> Int? {
        let components = pathComponents(folder)
        guard let catalogue = components.lastIndex(where: { $0.hasSuffix(".docc") }) else { return nil }
        return components.count - 1 - catalogue
    }

    /// The folder of a path: `docs` for `docs/guide.md`, `""` for `README.md`.
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return path[..<slash].isEmpty ? "/" : String(path[..<slash])
    }

    /// Whether a document at `path` is in a DocC catalogue: a folder on its path ends in
    /// `.docc`.
    package static func isInDocC(_ path: String) -> Bool {
        pathComponents(path).dropLast().contains { $0.hasSuffix(".docc") }
    }
}

/// Why a region's files cannot be planned, in one line.
package struct PlanError: Error, Equatable, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
