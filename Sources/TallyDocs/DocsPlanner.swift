/// Plans a run of `tally docs` over a set of documents (SPEC §8): which images and documents
/// to write, or, for `--check`, what is stale. It reads nothing and writes nothing; the command
/// line gives it the documents' bytes, a reader of region commands (which draws with the
/// command's own code), and a reader of the files already there.
///
/// Every region is read and every file planned before anything is drawn or compared, so one bad
/// region anywhere stops the run with no file written: `DocsPlan.failures` is then not empty and
/// `writes` is.
package enum DocsPlanner {
    /// A document to keep: its path from where tally runs, and its bytes.
    package struct Document: Sendable {
        package var path: String
        package var bytes: [UInt8]
        /// The folder its regions' `-o` are relative to: the document's own, or, for a document
        /// named through a link, its real file's, so one file has one set of images however it
        /// is named.
        package var folder: String
        /// Its folder on disk, every link resolved (by default `folder`): whether it is in a
        /// `.docc` catalogue, and how deep, is read from it (SPEC §8: there the inside is the
        /// catalogue), so an article named from inside its catalogue (`a.md` in
        /// `Foo.docc/Articles`) is in it as much as one named from outside.
        package var realFolder: String
        package init(path: String, bytes: [UInt8], folder: String? = nil, realFolder: String? = nil) {
            (self.path, self.bytes, self.folder) = (path, bytes, folder ?? ImagePlan.folder(of: path))
            self.realFolder = realFolder ?? self.folder
        }

        /// Whether its folder is in a DocC catalogue.
        var isInDocC: Bool { ImagePlan.depthInDocC(realFolder) != nil }
    }

    /// A region's command, read: what it asks for, and how to draw each of its files.
    package struct Command {
        package var request: ImageRequest
        /// Draws one planned file with the command's own code: the bytes the command writes
        /// with the plan's theme and scale.
        package var draw: (PlannedImage) throws(DocsFailure) -> [UInt8]

        package init(request: ImageRequest, draw: @escaping (PlannedImage) throws(DocsFailure) -> [UInt8]) {
            (self.request, self.draw) = (request, draw)
        }
    }

    /// Reads a region's words (its command line, cut) into a command, or the command's own
    /// one-line error and exit code.
    package typealias CommandReader = (_ words: [String]) throws(DocsFailure) -> Command

    /// Checks a planned file where it would be written and names it: the same name for every
    /// spelling of one file (links resolved), so two regions writing one file are found. Throws
    /// the one-line reason a region may not write there (SPEC §8: only images, only inside).
    package typealias TargetReader = (_ image: PlannedImage, _ document: Document) throws(DocsFailure) -> String

    /// Plans a run.
    /// - Parameters:
    ///   - documents: the documents, in the order they are reported.
    ///   - readCommand: the command line's reader of a region's words.
    ///   - target: checks each planned file and names it (by default, its path as planned).
    ///   - existing: how a file as it is now (named as `target` names it) compares with the
    ///     bytes it should have.
    ///   - maximumDocumentBytes: the most a document may hold after the update.
    package static func plan(
        _ documents: [Document], readCommand: CommandReader, target: TargetReader = { image, _ in image.path },
        existing: (_ target: String, _ bytes: [UInt8]) -> FileState, maximumDocumentBytes: Int = .max
    ) -> DocsPlan {
        var plan = DocsPlan()
        struct Pending {
            var document: Int
            var region: Region
            var command: Command
            var images: [PlannedImage]
            var targets: [String]
        }
        var parsed: [RegionDocument?] = []
        var pending: [Pending] = []
        var claimed: [String: (String, Int)] = [:]
        // In a DocC catalogue an image is found by its name alone, in any folder and any case,
        // its `~dark` and `@2x` variants aside: two files with one such name are one image to DocC.
        var doccNames: [String: (path: String, document: String, line: Int, target: String)] = [:]
        // 1. Read every document and region, and plan every file.
        for (index, document) in documents.enumerated() {
            let kind = RegionDocument.Kind(path: document.path)
            let regions: RegionDocument
            do {
                regions = try RegionDocument(document.bytes, kind: kind)
            } catch {
                plan.failures.append(DocsFinding(document.path, error.line, error.message, code: DocsFailure.usage))
                parsed.append(nil)
                continue
            }
            parsed.append(regions)
            plan.warnings += regions.warnings.map { DocsFinding(document.path, $0.line, $0.message) }
            plan.openersNotRun += regions.warnings.filter { !$0.isRun }.count
            for region in regions.regions {
                func fail(_ message: String, code: Int32 = DocsFailure.usage) {
                    plan.failures.append(DocsFinding(document.path, region.line, message, code: code))
                }
                let words: [String]
                do {
                    words = try CommandWords.split(region.command)
                } catch {
                    fail(error.message)
                    continue
                }
                guard !words.isEmpty else {
                    fail("the region has no command; write render, badge or gallery and its arguments after tally")
                    continue
                }
                let command: Command
                let images: [PlannedImage]
                do throws(DocsFailure) {
                    command = try readCommand(words)
                    do {
                        images = try ImagePlan.images(
                            for: command.request, documentFolder: document.folder,
                            inDocC: document.isInDocC, climb: ImagePlan.depthInDocC(document.realFolder) ?? 0)
                    } catch {
                        throw DocsFailure(error.message)
                    }
                } catch {
                    fail(error.message, code: error.code)
                    continue
                }
                var targets: [String] = []
                do throws(DocsFailure) {
                    for image in images { targets.append(try target(image, document)) }
                } catch {
                    fail(error.message, code: error.code)
                    continue
                }
                var clash = false
                for (image, key) in zip(images, targets) {
                    if let (otherPath, otherLine) = claimed[key] {
                        fail("'\(image.path)' is written by \(otherPath):\(otherLine) too; give each region its own -o")
                        clash = true
                        break
                    }
                }
                if clash { continue }
                if let depth = ImagePlan.depthInDocC(document.realFolder) {
                    let catalogue = document.realFolder.split(separator: "/").dropLast(depth).joined(separator: "/")
                    for (image, key) in zip(images, targets) {
                        let name = Self.doccName(of: image.path)
                        let docc = catalogue + "/" + name
                        // A region's own variants (`~dark`, `@2x`) share its name by design.
                        if let other = doccNames[docc], other.target != key,
                            other.document != document.path || other.line != region.line
                        {
                            fail(
                                "'\(image.path)' and '\(other.path)' (\(other.document):\(other.line)) have one DocC name, '\(name)'; DocC finds an image by its name in any folder and case: give one of them another name"
                            )
                            clash = true
                            break
                        }
                        doccNames[docc] = (image.path, document.path, region.line, key)
                    }
                    if clash { continue }
                }
                for key in targets { claimed[key] = (document.path, region.line) }
                pending.append(
                    Pending(document: index, region: region, command: command, images: images, targets: targets))
            }
        }
        guard plan.failures.isEmpty else { return plan }
        // 2. Draw every file once, and write each region's reference.
        var bodies: [[[UInt8]]] = parsed.map { _ in [] }
        for item in pending {
            let document = documents[item.document]
            var drawn: [DrawnImage] = []
            do throws(DocsFailure) {
                for image in item.images {
                    let bytes = try item.command.draw(image)
                    let scale = Double(image.scale ?? item.command.request.scales.first ?? "1") ?? 1
                    drawn.append(
                        DrawnImage(
                            plan: image, bytes: bytes,
                            size: ImageSize.of(bytes, format: item.command.request.format, scale: scale)))
                }
            } catch {
                plan.failures.append(DocsFinding(document.path, item.region.line, error.message, code: error.code))
                continue
            }
            let request = item.command.request
            let reference =
                document.isInDocC
                ? ImageReference.docc(drawn, alt: request.alt)
                : ImageReference.html(
                    drawn, alt: request.alt, densities: request.scales.count > 1 ? request.scales.map { $0 + "x" } : [])
            let regions = parsed[item.document]!
            bodies[item.document].append(regions.body(for: item.region, reference: reference))
            // 3. Compare each file with what is there.
            var staleHere: [String] = []
            for (image, key) in zip(drawn, item.targets) {
                let state = existing(key, image.bytes)
                guard state != .same else { continue }
                staleHere.append("image '\(image.plan.path)' is \(state == .missing ? "missing" : "out of date")")
                plan.writes.append(
                    DocsPlan.Write(
                        path: image.plan.path, bytes: image.bytes, isImage: true, target: key, document: document.path,
                        line: item.region.line))
            }
            if bodies[item.document].last! != item.region.body { staleHere.append("the reference is out of date") }
            for what in staleHere { plan.stale.append(DocsFinding(document.path, item.region.line, what)) }
            for (image, key) in zip(item.images, item.targets) {
                plan.images.append(
                    DocsPlan.Image(path: image.path, target: key, document: document.path, line: item.region.line))
            }
            plan.regions += 1
        }
        guard plan.failures.isEmpty else {
            plan.writes = []
            return plan
        }
        for (index, document) in documents.enumerated() {
            guard let regions = parsed[index], !regions.regions.isEmpty else { continue }
            let updated = regions.replacingBodies(bodies[index]).bytes
            plan.documents += 1
            guard updated != document.bytes else { continue }
            let changed = zip(regions.regions, bodies[index]).first { $0.0.body != $0.1 }?.0.line ?? 1
            if updated.count > maximumDocumentBytes {
                let region = regionPassing(
                    maximumDocumentBytes, in: regions, bodies: bodies[index], from: document.bytes)
                plan.failures.append(
                    DocsFinding(
                        document.path, region,
                        "this region's reference takes the document past \(size(maximumDocumentBytes)), the most a document may hold; nothing was written",
                        code: DocsFailure.usage))
                continue
            }
            plan.writes.append(
                DocsPlan.Write(
                    path: document.path, bytes: updated, isImage: false, target: document.path, document: document.path,
                    line: changed))
        }
        if !plan.failures.isEmpty { plan.writes = [] }
        return plan
    }

    /// The line of the region whose new reference takes the document past `limit` bytes,
    /// counting the regions' changes in order.
    /// The name DocC finds an image by: its file name without folders, extension and the
    /// `~dark` and `@2x` variants, in lower case.
    static func doccName(of path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        if let dot = name.lastIndex(of: ".") { name = name[..<dot] }
        if let at = name.firstIndex(of: "@") { name = name[..<at] }
        if name.hasSuffix("~dark") { name = name.dropLast(5) }
        return name.lowercased()
    }

    static func regionPassing(_ limit: Int, in document: RegionDocument, bodies: [[UInt8]], from bytes: [UInt8]) -> Int
    {
        var size = bytes.count
        for (region, body) in zip(document.regions, bodies) {
            size += body.count - region.body.count
            if size > limit { return region.line }
        }
        return document.regions.last?.line ?? 1
    }

    /// `16 MiB`, or a number of bytes that is no whole number of MiB.
    static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}

/// How a file on disk compares with the bytes it should hold.
package enum FileState: Sendable, Equatable {
    case missing, same, different
}

/// What a run of `tally docs` found, and what it would write.
package struct DocsPlan: Sendable {
    /// A file to write, whole and atomically.
    package struct Write: Sendable, Equatable {
        package var path: String
        package var bytes: [UInt8]
        /// An image, rather than a document: images are written first, so a document never
        /// names a file that is not there yet.
        package var isImage: Bool
        /// The file as the plan's `target` reader named it (a document: its path).
        package var target: String
        /// The region it is for, to name in a failure: its document and line (for a document,
        /// its first region that changed).
        package var document: String
        package var line: Int
    }

    /// A file a region writes, written by this run or already right: `--staged` asks git about
    /// each (SPEC §8).
    package struct Image: Sendable, Equatable {
        /// Its path from the folder tally runs in, as the plan names it.
        package var path: String
        /// The file as the plan's `target` reader named it.
        package var target: String
        /// The region that writes it: its document and line.
        package var document: String
        package var line: Int
    }

    /// Bad regions: when any, nothing may be written.
    package var failures: [DocsFinding] = []
    /// Opening comments outside code that are not run (SPEC §8): said, never silent, and no
    /// failure.
    package var warnings: [DocsFinding] = []
    /// How many of the warnings are of openers not run.
    package var openersNotRun = 0
    /// What differs from the documents and images as they are: `--check` lists it.
    package var stale: [DocsFinding] = []
    /// The files to write, images first: only those whose bytes change.
    package var writes: [Write] = []
    /// Every file of every region kept (light, dark and density files too), in the regions'
    /// order, whether or not it is written.
    package var images: [Image] = []
    /// How many regions, and how many documents holding one, were kept.
    package var regions = 0
    package var documents = 0
}

/// A finding of a run, at a region: `FILE:LINE: message`.
package struct DocsFinding: Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var line: Int
    package var message: String
    /// The exit code of SPEC §6 a failure carries; 0 for a stale region.
    package var code: Int32

    package init(_ path: String, _ line: Int, _ message: String, code: Int32 = 0) {
        (self.path, self.line, self.message, self.code) = (path, line, message, code)
    }

    /// `README.md:12: message`.
    package var description: String { "\(path):\(line): \(message)" }
}

/// A region's command that failed: the command's own one-line message and exit code.
package struct DocsFailure: Error, Sendable, Equatable {
    /// The exit code of bad usage or values (SPEC §6).
    package static let usage: Int32 = 64

    package var message: String
    package var code: Int32

    package init(_ message: String, code: Int32 = DocsFailure.usage) {
        (self.message, self.code) = (message, code)
    }
}
