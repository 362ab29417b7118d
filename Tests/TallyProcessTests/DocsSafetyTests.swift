import Foundation
import TallyCommands
import TallyOptions
import TallyPOSIX
import TallyTestSupport
import Testing

/// What `tally docs` may write, and where (SPEC §8): only images, only inside the document's
/// folder after every link is resolved, all or nothing. Each case builds a folder `doc` with a
/// sibling `outside`, and compares the whole tree around them (every entry, every byte, every
/// modification time, every link) before and after the run.
@Suite struct DocsSafetyTests {
    /// One entry of a tree: what it is, and its bytes, modification time or link target.
    struct Entry: Equatable {
        var kind: mode_t
        var bytes: [UInt8] = []
        var modified: [Int] = []
        var link: [UInt8] = []
    }

    /// Every entry below `root`, by its path's bytes, without following links.
    static func tree(_ root: String) -> [[UInt8]: Entry] {
        var entries: [[UInt8]: Entry] = [:]
        func walk(_ path: [UInt8]) {
            guard let folder = openFolder(path) else { return }
            defer { closedir(folder) }
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                guard name != [0x2E], name != [0x2E, 0x2E] else { continue }
                let child = path + [0x2F] + name
                let cPath = child.map { CChar(bitPattern: $0) } + [0]
                var info = stat()
                guard lstat(cPath, &info) == 0 else { continue }
                var item = Entry(kind: info.st_mode & S_IFMT)
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    if let file = fopen(cPath, "rb") {
                        var buffer = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
                        let read = fread(&buffer, 1, buffer.count, file)
                        fclose(file)
                        item.bytes = Array(buffer.prefix(read))
                    }
                    item.modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
                case S_IFLNK:
                    var target = [CChar](repeating: 0, count: 4096)
                    let length = readlink(cPath, &target, target.count)
                    item.link = target.prefix(max(0, length)).map { UInt8(bitPattern: $0) }
                case S_IFDIR: walk(child)
                default: break
                }
                entries[child] = item
            }
        }
        walk(Array(root.utf8))
        return entries
    }

    /// opendir on a path of raw bytes.
    static func openFolder(_ path: [UInt8]) -> OpaquePointer? {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        return opendir(cPath)
    }

    /// A fresh pair of folders, `doc` and `outside`, in a folder of their own.
    struct Place {
        let base: URL
        var doc: URL { base.appendingPathComponent("doc") }
        var outside: URL { base.appendingPathComponent("outside") }

        init() throws {
            base = try TallyProcess.temporaryDirectory()
            try FileManager.default.createDirectory(at: doc, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        }

        func write(_ text: String, to name: String) throws {
            let url = doc.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func link(_ name: String, to target: String) throws {
            #expect(symlink(target, doc.appendingPathComponent(name).path) == 0)
        }

        var tree: [[UInt8]: Entry] { DocsSafetyTests.tree(base.path) }

        /// The entries of `outside` and below, which no run may change.
        var outsideTree: [[UInt8]: Entry] { DocsSafetyTests.tree(outside.path) }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    /// A region, on its lines.
    static func region(_ command: String) -> String { "<!-- tally \(command) -->\n<!-- /tally -->\n" }

    /// Runs `tally docs` in `doc`, and expects it to fail with one line naming `needle`, with
    /// every entry around `doc` as it was.
    static func expectRefused(
        _ arguments: [String], in place: Place, status: Int32, mentioning needle: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = place.tree
        let run = try TallyProcess.run(["docs"] + arguments, directory: place.doc, timeout: 20)
        expectOneLineError(run, status: status, mentioning: needle, sourceLocation: sourceLocation)
        #expect(place.tree == before, "the tree changed", sourceLocation: sourceLocation)
    }

    /// Writes `a.md` with one region running `command`, and expects `tally docs a.md` to be
    /// refused as `expectRefused` says.
    static func expectRegionRefused(
        _ command: String, in place: Place, status: Int32, mentioning needle: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try place.write(region(command), to: "a.md")
        try expectRefused(["a.md"], in: place, status: status, mentioning: needle, sourceLocation: sourceLocation)
    }

    /// Runs `tally docs` in process over `doc`, and expects it to be refused with 73 and a
    /// message holding each of `words`, with every entry around `doc` as it was.
    static func expectRefusedInProcess(
        _ place: Place, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = place.tree
        let error = #expect(throws: CommandFailure.self, sourceLocation: sourceLocation) {
            _ = try DocsRun.update(
                paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        }
        #expect(error?.code == .cannotCreate, sourceLocation: sourceLocation)
        for word in words {
            #expect(error?.message.contains(word) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
        }
        #expect(place.tree == before, sourceLocation: sourceLocation)
    }

    @Test(.processTimeLimit(minutes: 1))
    func anOutputNamingADocumentIsRefused() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        // The document itself, with a format that would make it an SVG.
        try place.write(
            "# Notes\nimportant text\n" + Self.region("render 5 --theme light -f svg -o doc.md"), to: "doc.md")
        try Self.expectRefused(
            ["doc.md"], in: place, status: 64, mentioning: "doc.md:3: -o 'doc.md' ends in .md; a region that draws svg")
        try Self.expectRefused(
            ["doc.md"], in: place, status: 64, mentioning: "doc.md:3: -o 'doc.md' ends in .md")
        // Another document, as the sweep found it: an SVG over notes.md.
        try place.write("user text\n", to: "notes.md")
        try place.write(Self.region("render 5 --theme light -f svg -o notes.md"), to: "a.md")
        try Self.expectRefused(["a.md"], in: place, status: 64, mentioning: "a.md:1: -o 'notes.md' ends in .md")
        // Another document of the run, named with the image's extension.
        try place.write("user text\n", to: "notes.svg")
        try place.write(Self.region("render 5 --theme light -o notes.svg"), to: "a.md")
        try Self.expectRefused(
            ["a.md", "notes.svg"], in: place, status: 73,
            mentioning: "a.md:1: cannot write 'notes.svg': it is a document of this run")
    }

    @Test(.processTimeLimit(minutes: 1))
    func linksCannotLeadAnImageOutOfTheFolder() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.link("images", to: "../outside")
        try Self.expectRegionRefused(
            "render 5 -o images/t.svg", in: place, status: 73,
            mentioning: "a.md:1: cannot write 'images/t.svg': 'images' leads out of the document's folder")
        // A link to a folder below, and an -o that is a link to a device.
        try FileManager.default.createDirectory(
            at: place.doc.appendingPathComponent("real"), withIntermediateDirectories: true)
        try place.link("inside", to: "real")
        try place.link("null.svg", to: "/dev/null")
        try Self.expectRegionRefused(
            "render 5 --theme light -o null.svg", in: place, status: 73,
            mentioning: "a.md:1: cannot write 'null.svg': it is a link")
        try place.write(Self.region("render 5 --theme light -o inside/t.svg"), to: "a.md")
        let run = try TallyProcess.run(["docs", "a.md"], directory: place.doc)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: place.doc.appendingPathComponent("real/t.svg").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.outside.path).isEmpty)
    }

    /// A document named through a link is updated through it: the real file's bytes change,
    /// the link stays a link, and its images are beside the real file.
    @Test(.processTimeLimit(minutes: 1))
    func aLinkedDocumentIsUpdatedThroughItsLink() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.write("# Readme\n" + Self.region("render 5 --theme light -o images/five.svg"), to: "README.md")
        try FileManager.default.createDirectory(
            at: place.doc.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try place.link("docs/index.md", to: "../README.md")
        let outside = place.outsideTree
        let run = try TallyProcess.run(["docs", "docs/index.md"], directory: place.doc)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(place.outsideTree == outside)
        #expect(OutputPathTests.isLink(place.doc.appendingPathComponent("docs/index.md").path))
        let readme = try String(contentsOf: place.doc.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("<img src=\"images/five.svg\""))
        #expect(FileManager.default.fileExists(atPath: place.doc.appendingPathComponent("images/five.svg").path))
        #expect(!FileManager.default.fileExists(atPath: place.doc.appendingPathComponent("docs/images").path))
        // A search finds the file twice, by its name and through the link: one document.
        let scan = try TallyProcess.run(["docs", "--check", "."], directory: place.doc)
        #expect(scan.status == 0 && scan.stderr.contains("1 region in 1 document"), "\(scan.stderr)")
    }

    /// Every way a write could fail after planning that a check can see is found before
    /// anything is written, named as FILE:LINE.
    @Test(.processTimeLimit(minutes: 1))
    func whatCannotBeWrittenIsFoundBeforeAnyWrite() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.createDirectory(
            at: place.doc.appendingPathComponent("t-dark.svg"), withIntermediateDirectories: true)
        try Self.expectRegionRefused(
            "render 5 -o t.svg", in: place, status: 73, mentioning: "a.md:1: cannot write 't-dark.svg': it is a folder")
        // A folder on the way that is a file.
        try place.write("text", to: "notes.txt")
        try Self.expectRegionRefused(
            "render 5 --theme light -o notes.txt/t.svg", in: place, status: 73,
            mentioning: "a.md:1: cannot write 'notes.txt/t.svg': 'notes.txt' is not a folder")
        // Names whose light and dark forms pass 255 bytes.
        let long = String(repeating: "n", count: 249)
        try Self.expectRegionRefused(
            "render 5 -o \(long).svg", in: place, status: 73, mentioning: "bytes; a file name is at most 255")
        // An unrelated light or dark file of an auto region is never overwritten.
        try place.write("<svg><!-- drawn by hand --></svg>", to: "logo-dark.svg")
        try Self.expectRegionRefused(
            "render 5 -o logo.svg", in: place, status: 73,
            mentioning: "a.md:1: cannot write 'logo-dark.svg': it is there and is not an image tally wrote")
        try Self.expectRefused(
            ["--check", "a.md"], in: place, status: 73, mentioning: "a.md:1: cannot write 'logo-dark.svg'")
    }

    /// A FIFO as an image or a document is an error, never a wait; found in a search, a
    /// warning.
    @Test(.processTimeLimit(minutes: 1))
    func fifosNeverHang() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        #expect(mkfifo(place.doc.appendingPathComponent("t.svg").path, 0o644) == 0)
        #expect(mkfifo(place.doc.appendingPathComponent("pipe.md").path, 0o644) == 0)
        try place.link("pipe-link.svg", to: "t.svg")
        try place.write(Self.region("render 5 --theme light -o t.svg"), to: "a.md")
        for arguments in [["a.md"], ["--check", "a.md"]] {
            try Self.expectRefused(
                arguments, in: place, status: 73, mentioning: "a.md:1: cannot write 't.svg': it is a FIFO")
        }
        try place.write(Self.region("render 5 --theme light -o pipe-link.svg"), to: "a.md")
        try Self.expectRefused(["a.md"], in: place, status: 73, mentioning: "'pipe-link.svg': it is a link")
        try Self.expectRefused(["pipe.md"], in: place, status: 64, mentioning: "cannot read 'pipe.md': it is a FIFO")
    }

    /// Two spellings of one file are one file, across documents.
    @Test(.processTimeLimit(minutes: 1))
    func twoSpellingsOfOneFileAreOneFile() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.link("self", to: ".")
        try place.write(
            Self.region("render 5 --theme light -o x.svg") + Self.region("render 6 --theme light -o self/x.svg"),
            to: "a.md")
        try Self.expectRefused(
            ["a.md"], in: place, status: 64, mentioning: "a.md:3: 'self/x.svg' is written by a.md:1 too")
        try place.write(Self.region("render 5 --theme light -o docs/x.svg"), to: "a.md")
        try place.write(Self.region("render 6 --theme light -o x.svg"), to: "docs/b.md")
        try Self.expectRefused(
            ["a.md", place.doc.appendingPathComponent("docs/b.md").path], in: place, status: 64,
            mentioning: "docs/x.svg' is written by a.md:1 too")
    }

    /// A folder's search warns once for each entry it cannot use, and goes on; the same entry
    /// named is an error.
    @Test(.processTimeLimit(minutes: 1))
    func aSearchIsForgivingANamedPathStrict() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 5 --theme light -o five.svg"), to: "good.md")
        try place.link("gone.md", to: "nothing-here.md")
        try place.link("loop.md", to: "loop.md")
        try FileManager.default.createDirectory(
            at: place.doc.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try place.link("x.md", to: "folder")
        #expect(mkfifo(place.doc.appendingPathComponent("pipe.md").path, 0o644) == 0)
        // A document outside the folder searched, with a region: a search does not write
        // through a link that leaves it.
        try place.write(Self.region("render 5 --theme light -o five.svg"), to: "../outside/away.md")
        try place.link("away.md", to: "../outside/away.md")
        let before = place.outsideTree
        let run = try TallyProcess.run(["docs"], directory: place.doc)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("tally: warning: ") }
        #expect(warnings.count == 5, "\(run.stderr)")
        #expect(warnings.contains { $0.contains("'pipe.md': it is a FIFO, not a document") })
        #expect(
            warnings.contains {
                $0.contains("'away.md': it is a link to '") && $0.hasSuffix("outside the folder searched")
            })
        #expect(place.outsideTree == before)
        #expect(warnings.contains { $0.contains("'gone.md': it is a link to nothing") })
        #expect(warnings.contains { $0.contains("'loop.md': it is a loop of links") })
        #expect(warnings.contains { $0.contains("'x.md': it is a link to a folder") })
        #expect(run.stderr.contains("1 region in 1 document: wrote 1 image and 1 document"), "\(run.stderr)")
        try Self.expectRefused(["gone.md"], in: place, status: 64, mentioning: "'gone.md': it is a link to nothing")
        try Self.expectRefused(["loop.md"], in: place, status: 64, mentioning: "'loop.md': it is a loop of links")
    }

    /// Past `ulimit -f` the run ends with one line, "file too large", and no file changed.
    @Test(.processTimeLimit(minutes: 1), .enabled(if: canRun(installedProgram("sh"))))
    func aFileSizeLimitIsAnErrorNotASilentDeath() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 99999 --theme light -o big.svg"), to: "a.md")
        let before = place.tree
        let shell = try #require(installedProgram("sh"))
        let run = try runProgram(
            shell, ["-c", "ulimit -f 1 && exec \"$0\" docs a.md", TallyProcess.executable.path],
            directory: place.doc)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("tally: error: a.md:1: cannot write 'big.svg': file too large"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(place.tree == before)
    }

    /// An immutable document refuses the second name its update keeps of it, so the run stops
    /// before any rename: the images it would have replaced are as they were. It needs chattr,
    /// root and a file system that keeps the flag, so it runs where they are, never fails
    /// for want of them.
    @Test(.processTimeLimit(minutes: 1), .enabled(if: installedProgram("chattr") != nil))
    func anImmutableDocumentIsFoundBeforeAnyRename() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 5 --theme light -o five.svg"), to: "page.md")
        #expect(try TallyProcess.run(["docs", "page.md"], directory: place.doc).status == 0)
        try place.write(Self.region("render 6 --theme light -o five.svg"), to: "page.md")
        let chattr = try #require(installedProgram("chattr"))
        let page = place.doc.appendingPathComponent("page.md").path
        // Only root may set the flag, and only some file systems keep it (not tmpfs).
        guard try runProgram(chattr, ["+i", page]).status == 0 else { return }
        defer { _ = try? runProgram(chattr, ["-i", page]) }
        try Self.expectRefused(
            ["page.md"], in: place, status: 73,
            mentioning: "page.md:1: cannot replace 'page.md': Operation not permitted")
    }

    /// A lone-CR document is read line by line; `-o`'s bytes are the file's name as given.
    @Test(.processTimeLimit(minutes: 1))
    func loneCRLinesAndBytesThatAreNotUTF8() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.write("# Old Mac\r<!-- tally render 5 --theme light -o five.svg -->\r<!-- /tally -->\r", to: "cr.md")
        var bytes =
            Array("<!-- tally render 5 --theme light -o caf".utf8) + [0xE9] + Array(".svg -->\n<!-- /tally -->\n".utf8)
        try Data(bytes).write(to: place.doc.appendingPathComponent("latin.md"))
        let outside = place.outsideTree
        let run = try TallyProcess.run(["docs", "cr.md", "latin.md"], directory: place.doc)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(place.outsideTree == outside)
        let cr = try Data(contentsOf: place.doc.appendingPathComponent("cr.md"))
        #expect(
            String(decoding: cr, as: UTF8.self).hasPrefix(
                "# Old Mac\r<!-- tally render 5 --theme light -o five.svg -->\r<picture><img src=\"five.svg\""))
        #expect(cr.suffix(17) == Data("\r<!-- /tally -->\r".utf8))
        #expect(FileManager.default.fileExists(atPath: place.doc.appendingPathComponent("five.svg").path))
        let names = OutputPathTests.entries(place.doc)
        #expect(names.contains(Array("caf".utf8) + [0xE9] + Array(".svg".utf8)))
        bytes = Array(try Data(contentsOf: place.doc.appendingPathComponent("latin.md")))
        // The reference is the URL of that name: the byte, escaped as itself.
        #expect(String(decoding: bytes, as: UTF8.self).contains("<img src=\"caf%E9.svg\""))
    }

    /// tally's own images of every kind (render, badge and gallery; SVG, PNG, animated) are
    /// recognised as such, and replaced when their region changes.
    @Test(.processTimeLimit(minutes: 1))
    func tallysOwnImagesAreReplaced() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        let regions = [
            "render 5 -f png -o a.png", "render 5 --animate -o b.svg", "badge 5 -o c.svg", "badge 5 -f png -o d.png",
            "gallery 1 5 -o e.svg", "gallery 1 5 -f png -o f.png",
        ]
        try place.write(regions.map(Self.region).joined(), to: "page.md")
        #expect(try TallyProcess.run(["docs", "page.md"], directory: place.doc).status == 0)
        try place.write(
            regions.map { Self.region($0.replacingOccurrences(of: " 5 ", with: " 6 ")) }.joined(), to: "page.md")
        let outside = place.outsideTree
        let run = try TallyProcess.run(["docs", "page.md"], directory: place.doc)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(place.outsideTree == outside)
        #expect(run.stderr.contains("6 regions in 1 document: wrote 12 images and 1 document"), "\(run.stderr)")
    }

    /// In a `.docc` catalogue the inside is the catalogue: an article writes into its
    /// Resources, checked beneath the catalogue's real folder, and no further.
    @Test(.processTimeLimit(minutes: 1))
    func inACatalogueTheInsideIsTheCatalogue() throws {
        try startingAProcess()
        let place = try Place()
        defer { place.remove() }
        try place.write(
            Self.region("render 5 --theme light -f png -o ../Resources/five.png"), to: "A.docc/Articles/a.md")
        let outside = place.outsideTree
        let run = try TallyProcess.run(["docs", "A.docc"], directory: place.doc)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(place.outsideTree == outside)
        #expect(
            FileManager.default.fileExists(atPath: place.doc.appendingPathComponent("A.docc/Resources/five.png").path))
        try place.link("A.docc/Resources/out", to: "../../../outside")
        try place.write(
            Self.region("render 5 --theme light -f png -o ../Resources/out/five.png"), to: "A.docc/Articles/a.md")
        try Self.expectRefused(
            ["A.docc"], in: place, status: 73, mentioning: "'Resources/out' leads out of the document's folder")
    }

    /// A path's names are what is between its slash bytes, as the kernel reads them: a `/`
    /// before a combining mark is a slash all the same, and empty names are kept only when asked.
    @Test func pathComponentsAreTheNamesBetweenSlashBytes() {
        #expect(pathComponents("a/b/c") == ["a", "b", "c"])
        #expect(pathComponents("/a//b/") == ["a", "b"])
        #expect(pathComponents("/a//b/", omittingEmpty: false) == ["", "a", "", "b", ""])
        #expect(pathComponents("") == [] && pathComponents("", omittingEmpty: false) == [""])
        #expect(pathComponents("x/\u{301}y/é") == ["x", "\u{301}y", "é"])
        #expect(pathComponents("images/../a.svg") == ["images", "..", "a.svg"])
    }

    /// The kernel's check follows a link that stays below the folder and refuses one that
    /// leaves; the walk that stands in for it where the kernel has none follows no link.
    @Test func openingBeneathAFolder() throws {
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.createDirectory(
            at: place.doc.appendingPathComponent("real/deeper"), withIntermediateDirectories: true)
        try place.link("inside", to: "real")
        try place.link("out", to: "../outside")
        let root = open(place.doc.path, O_RDONLY | O_DIRECTORY)
        #expect(root >= 0)
        defer { close(root) }
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        func opened(_ path: String, kernel: Bool) -> (Bool, Int32) {
            let descriptor = Beneath.open(root, path, flags, kernel: kernel)
            let code = errno
            if descriptor >= 0 { close(descriptor) }
            return (descriptor >= 0, descriptor >= 0 ? 0 : code)
        }
        #expect(opened("real/deeper", kernel: false) == (true, 0))
        #expect(opened("inside/deeper", kernel: false).0 == false)
        #expect(opened("out", kernel: false).0 == false)
        #expect(opened("../outside", kernel: false) == (false, EXDEV))
        // Whatever the kernel, a path that leads out is refused.
        #expect(opened("out", kernel: true).0 == false)
        #expect(opened("../outside", kernel: true).0 == false)
        #expect(opened(place.outside.path, kernel: true).0 == false)
        // Where the kernel has openat2 (Linux 5.6 and later; known from its release, never from
        // the code under test, so a broken call cannot switch these checks off), it is the
        // kernel that refuses (EXDEV, where the walk says ELOOP) and links inside are followed.
        if Self.kernelHasOpenat2 {
            #expect(opened("out", kernel: true) == (false, EXDEV))
            #expect(opened("inside/deeper", kernel: true) == (true, 0))
            #expect(opened("../outside", kernel: true) == (false, EXDEV))
            #expect(opened(place.outside.path, kernel: true) == (false, EXDEV))
        } else {
            #expect(opened("inside/deeper", kernel: true).0 == false)
        }
    }

    /// Whether this kernel offers `openat2`: Linux 5.6 or later, unless
    /// `TALLY_KERNEL_FILTERS_OPENAT2` says a seccomp filter forbids the call here (the code
    /// then walks, and this test checks the walk).
    static let kernelHasOpenat2: Bool = {
        #if os(Linux)
        guard ProcessInfo.processInfo.environment["TALLY_KERNEL_FILTERS_OPENAT2"] == nil,
            let release = try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)
        else { return false }
        let parts = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard parts.count == 2 else { return false }
        return parts[0] > 5 || (parts[0] == 5 && parts[1] >= 6)
        #else
        return false
        #endif
    }()

    // MARK: All or nothing, in process

    /// Fails the write, or the renames, of chosen numbers (counting from 0), with a chosen
    /// `errno`.
    final class FaultyOperations: DocsFileOperations, @unchecked Sendable {
        let system = SystemFileOperations()
        var failingWrite: Int?
        var failingRenames: Set<Int>
        var code: Int32
        var writes = 0
        var renames = 0

        init(write: Int? = nil, renames: Set<Int> = [], code: Int32 = ENOSPC) {
            (failingWrite, failingRenames, self.code) = (write, renames, code)
        }

        func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
            defer { writes += 1 }
            if writes == failingWrite {
                // Half the bytes first, as a disk that fills up mid-file leaves them.
                _ = system.write(descriptor, Array(bytes.prefix(bytes.count / 2)))
                return code
            }
            return system.write(descriptor, bytes)
        }

        func rename(in folder: Int32, _ from: String, _ to: String) -> Int32 {
            defer { renames += 1 }
            return failingRenames.contains(renames) ? code : system.rename(in: folder, from, to)
        }

        /// Whether a fault was reached.
        var faulted: Bool {
            failingWrite.map { writes > $0 } ?? false || failingRenames.contains { renames > $0 }
        }
    }

    /// A tally SVG's first bytes, as an image an earlier run wrote (and as 0.2 wrote them).
    static let olderImages = [
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"tally-000000000000\"></svg>\n",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"tally\" width=\"9\"></svg>\n",
    ]

    /// Random documents, regions and targets (new names, older tally images, documents, images
    /// drawn by hand, links inside and out, FIFOs, folders) and a fault at a random write or
    /// rename: the run either writes every file it planned (a check then passes) or leaves
    /// every entry as it was; no temporary file stays and nothing outside changes.
    @Test func aRunWritesEverythingOrNothing() throws {
        var random = SeededGenerator(state: 0xD0C5_5AFE)
        let allowed = ["new.svg", "img/new.svg", "img/deep/new.svg", "older.svg", "inlink/new.svg", "self/older.svg"]
        let hostile = [
            "hand.svg", "other.md", "notes.svg", "outlink/new.svg", "fifo.svg", "folder.svg", "dangling/new.svg",
        ]
        var outcomes = (written: 0, refused: 0, faulted: 0)
        for _ in 0..<80 {
            let place = try Place()
            defer { place.remove() }
            try place.write(Self.olderImages.randomElement(using: &random)!, to: "older.svg")
            // Another program's SVG whose id only starts like tally's.
            try place.write("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"tallyho\"></svg>", to: "lookalike.svg")
            try place.write("<svg><!-- by hand --></svg>", to: "hand.svg")
            try place.write("text\n", to: "other.md")
            // A document of the run with an image's name, named beside the folder.
            try place.write("notes\n", to: "notes.svg")
            try place.write("kept", to: "sub/kept.txt")
            try place.write(Self.olderImages[0], to: "../outside/older.svg")
            try place.link("inlink", to: "sub")
            try place.link("outlink", to: "../outside")
            try place.link("self", to: ".")
            try place.link("dangling", to: "missing")
            #expect(mkfifo(place.doc.appendingPathComponent("fifo.svg").path, 0o644) == 0)
            try FileManager.default.createDirectory(
                at: place.doc.appendingPathComponent("folder.svg"), withIntermediateDirectories: true)
            var used: Set<String> = []
            // A third of the runs may meet targets that must be refused.
            let targets = allowed + (Int.random(in: 0..<3, using: &random) == 0 ? hostile : [])
            for document in 0..<Int.random(in: 1...3, using: &random) {
                var text = "# Page \(document)\n"
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    let target = targets.randomElement(using: &random)!
                    // Mostly distinct outputs, so most runs get as far as writing.
                    if used.contains(target) && Bool.random(using: &random) { continue }
                    used.insert(target)
                    let theme = Bool.random(using: &random) ? "--theme light" : ""
                    let format = target.hasSuffix(".md") ? "-f svg" : ""
                    text += Self.region(
                        "render \(Int.random(in: 0...300, using: &random)) \(theme) \(format) -o \(target)")
                }
                try place.write(text, to: document == 2 ? "sub/page\(document).md" : "page\(document).md")
            }
            let before = place.tree
            let outside = place.outsideTree
            // A fault at a write (before any rename) or at a rename (then the files replaced
            // are put back): either way every file ends as it was.
            let fault = Int.random(in: 0..<6, using: &random)
            let faulty =
                switch Int.random(in: 0..<4, using: &random) {
                case 0: FaultyOperations(code: EIO)
                case 1: FaultyOperations(renames: [fault], code: EIO)
                default:
                    FaultyOperations(write: fault, code: [ENOSPC, EIO, EFBIG, EDQUOT].randomElement(using: &random)!)
                }
            var failure: CommandFailure?
            do {
                _ = try DocsRun.update(
                    paths: [place.doc.path, place.doc.appendingPathComponent("notes.svg").path], check: false,
                    operations: faulty, say: { _ in })
            } catch {
                failure = error
            }
            let after = place.tree
            #expect(!after.keys.contains { String(decoding: $0, as: UTF8.self).contains(".tally-") })
            #expect(place.outsideTree == outside)
            if let failure {
                #expect(after == before, "\(failure.message)")
                if faulty.faulted {
                    outcomes.faulted += 1
                    #expect(
                        failure.message.contains(": cannot write '")
                            || failure.message.hasSuffix("every file is as it was"), "\(failure.message)")
                } else {
                    outcomes.refused += 1
                }
            } else {
                // Every planned file has its new bytes: a check finds nothing stale.
                outcomes.written += 1
                #expect(!faulty.faulted)
                _ = try DocsRun.update(
                    paths: [place.doc.path, place.doc.appendingPathComponent("notes.svg").path], check: true,
                    operations: SystemFileOperations(), say: { _ in })
                // Nothing but tally's images and the documents with regions changed.
                for (path, entry) in before {
                    let name = String(decoding: path, as: UTF8.self)
                    if entry.kind != S_IFREG
                        || ["hand.svg", "lookalike.svg", "other.md", "notes.svg", "kept.txt"].contains(
                            where: name.hasSuffix)
                    {
                        #expect(after[path] == entry, "\(name)")
                    }
                }
            }
        }
        // The generator reaches each outcome, so each branch above is tested.
        #expect(outcomes.written > 10 && outcomes.refused > 10 && outcomes.faulted > 10, "\(outcomes)")
    }

    /// Swaps a folder for a link to another place at the run's first write.
    final class SwappingOperations: DocsFileOperations, @unchecked Sendable {
        let system = SystemFileOperations()
        let folder: String
        let link: String
        var swapped = false

        init(folder: String, link: String) { (self.folder, self.link) = (folder, link) }

        func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
            if !swapped {
                swapped = true
                #expect((try? FileManager.default.moveItem(atPath: folder, toPath: folder + "-moved")) != nil)
                #expect(symlink(link, folder) == 0)
            }
            return system.write(descriptor, bytes)
        }

        func rename(in folder: Int32, _ from: String, _ to: String) -> Int32 { system.rename(in: folder, from, to) }
    }

    /// A link swapped in for a folder during the run cannot lead a write out: the folder
    /// already opened keeps its writes (now in the folder moved aside), and one opened later
    /// beneath the document's folder is refused, so every file is put back.
    @Test func aLinkSwappedInDuringTheRunCannotLeadOut() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(
            Self.region("render 5 --theme light -o img/a.svg") + Self.region("render 6 --theme light -o img/sub/b.svg"),
            to: "page.md")
        try FileManager.default.createDirectory(
            at: place.doc.appendingPathComponent("img"), withIntermediateDirectories: true)
        let outside = place.outsideTree
        let swapping = SwappingOperations(folder: place.doc.appendingPathComponent("img").path, link: "../outside")
        let error = #expect(throws: CommandFailure.self) {
            _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: swapping, say: { _ in })
        }
        #expect(swapping.swapped)
        #expect(error?.message.contains("page.md:3: cannot create") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("it leads out of the document's folder") == true)
        let after = place.tree
        #expect(place.outsideTree == outside)
        #expect(!after.keys.contains { String(decoding: $0, as: UTF8.self).contains(".tally-") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.doc.path + "/img-moved").isEmpty)
    }

    /// A failure during the renames puts back the files already replaced; where that fails
    /// too, the error names the files replaced and those not. No temporary file stays.
    @Test func aFailedRenamePutsBackWhatWasReplaced() throws {
        let place = try Place()
        defer { place.remove() }
        let regions = Self.region("render 5 --theme light -o a.svg") + Self.region("render 6 --theme light -o b.svg")
        try place.write(regions, to: "page.md")
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        try place.write(regions.replacingOccurrences(of: "render ", with: "render 1"), to: "page.md")
        let before = place.tree
        let folder = place.doc.path
        // The rename of b.svg fails: a.svg, already replaced, is put back.
        let putBack = #expect(throws: CommandFailure.self) {
            _ = try DocsRun.update(
                paths: [folder], check: false, operations: FaultyOperations(renames: [1], code: EIO), say: { _ in })
        }
        #expect(
            putBack?.message
                == "\(folder)/page.md:3: cannot replace '\(folder)/b.svg': Input/output error; every file is as it was")
        #expect(putBack?.code == .io)
        #expect(place.tree == before)
        // Putting a.svg back fails too: the error says what was replaced and what was not.
        let halfDone = #expect(throws: CommandFailure.self) {
            _ = try DocsRun.update(
                paths: [folder], check: false, operations: FaultyOperations(renames: [1, 2], code: EIO), say: { _ in })
        }
        #expect(
            halfDone?.message
                == "\(folder)/page.md:3: cannot replace '\(folder)/b.svg': Input/output error; replaced and not put back: '\(folder)/a.svg'; as they were: '\(folder)/b.svg', '\(folder)/page.md'"
        )
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["a.svg", "b.svg", "page.md"])
        #expect(place.tree.filter { $0.value != before[$0.key] }.count == 1)
    }

    // MARK: A change during the run

    /// Edits a file at one of the run's renames (counting from 0): before the run's own check
    /// of that file (`beforeCheck`, as at the run's previous rename) or between the check and
    /// the rename.
    final class EditingOperations: DocsFileOperations, @unchecked Sendable {
        let system = SystemFileOperations()
        let at: Int
        let edit: () -> Void
        var renames = 0
        var edited = false

        init(at: Int, edit: @escaping () -> Void) { (self.at, self.edit) = (at, edit) }

        func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 { system.write(descriptor, bytes) }

        func rename(in folder: Int32, _ from: String, _ to: String) -> Int32 {
            defer { renames += 1 }
            if renames == at {
                edit()
                edited = true
            }
            return system.rename(in: folder, from, to)
        }
    }

    /// SPEC §8, "a change during the run": a document or an image edited since the run read it,
    /// in place or saved by rename, before the run reaches it or just before its rename, is
    /// never replaced, and nothing of the run is kept: 74, "'FILE' changed during the run; run
    /// again". The edit stays; no temporary file stays.
    @Test(arguments: ["append to the document", "save the document by rename", "edit an image in place"])
    func anEditDuringTheRunIsNeverLost(_ edit: String) throws {
        // At each rename of the run (two images, then the document).
        for at in 0..<3 {
            let place = try Place()
            defer { place.remove() }
            let regions =
                Self.region("render 5 --theme light -o a.svg") + Self.region("render 6 --theme light -o b.svg")
            try place.write(regions, to: "page.md")
            _ = try DocsRun.update(
                paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
            try place.write(regions.replacingOccurrences(of: "render ", with: "render 1"), to: "page.md")
            let page = place.doc.appendingPathComponent("page.md").path
            let image = place.doc.appendingPathComponent("b.svg").path
            let editing = EditingOperations(at: at) {
                switch edit {
                case "append to the document":
                    let handle = FileHandle(forWritingAtPath: page)
                    handle?.seekToEndOfFile()
                    handle?.write(Data("MY NEW PARAGRAPH\n".utf8))
                    handle?.closeFile()
                case "save the document by rename":
                    let saved = (try? String(contentsOfFile: page, encoding: .utf8)) ?? ""
                    _ = FileManager.default.createFile(
                        atPath: page + ".swp", contents: Data((saved + "MY NEW PARAGRAPH\n").utf8))
                    _ = rename(page + ".swp", page)
                default:
                    let handle = FileHandle(forWritingAtPath: image)
                    handle?.seekToEndOfFile()
                    handle?.write(Data("<!-- MY NOTE -->\n".utf8))
                    handle?.closeFile()
                }
            }
            let before = place.tree
            var failure: CommandFailure?
            do {
                _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: editing, say: { _ in })
            } catch {
                failure = error
            }
            #expect(editing.edited)
            let after = place.tree
            let edited = edit == "edit an image in place" ? image : page
            // A save by rename between the check and the rename of the document itself is the
            // one edit the run cannot see (the window is a rename's); every other is found.
            if edit == "save the document by rename" && at == 2 { continue }
            // An image edited after the run replaced it is an edit of the new image: kept.
            if edit == "edit an image in place" && at == 2 {
                #expect(failure == nil, "\(failure?.message ?? "")")
                #expect(((try? String(contentsOfFile: image, encoding: .utf8)) ?? "").contains("MY NOTE"))
                continue
            }
            let message = failure?.message ?? ""
            #expect(failure?.code == .io, "\(edit) at rename \(at): \(message)")
            #expect(message.hasPrefix("'\(edited)' changed during the run; run again"), "\(edit) at \(at): \(message)")
            #expect(!after.keys.contains { String(decoding: $0, as: UTF8.self).contains(".tally-") })
            // Every file is as it was but the edited one, which holds the edit.
            for (path, entry) in before where String(decoding: path, as: UTF8.self) != edited {
                #expect(after[path] == entry, "\(edit) at \(at): \(String(decoding: path, as: UTF8.self))")
            }
            let text = (try? String(contentsOfFile: edited, encoding: .utf8)) ?? ""
            #expect(text.contains("MY NEW PARAGRAPH") || text.contains("MY NOTE"), "\(edit) at \(at)")
        }
    }

    // MARK: Edges

    /// A file's name of any length the file system takes gets its temporary beside it: 240
    /// bytes failed nearly always (the temporary's name passed 255).
    @Test func namesUpToTheLimitAreWritten() throws {
        for length in [238, 239, 240, 241, 250] {
            let place = try Place()
            defer { place.remove() }
            let name = String(repeating: "n", count: length - 4) + ".svg"
            try place.write(Self.region("render 5 --theme light -o \(name)"), to: "page.md")
            for _ in 0..<3 {
                try place.write(
                    Self.region("render \(Int.random(in: 1...900)) --theme light -o \(name)"), to: "page.md")
                _ = try DocsRun.update(
                    paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
            }
            #expect(FileManager.default.fileExists(atPath: place.doc.appendingPathComponent(name).path))
        }
    }

    /// A NUL or another control character in `-o` is refused, naming it: a NUL ended the name
    /// at the system's call, and `a.svg\0x` wrote a file `a` with no extension.
    @Test func controlCharactersInAnOutputAreRefused() throws {
        for output in ["a.svg\u{0}x.svg", "a\u{1}.svg", "line\nbreak.svg", "del\u{7F}.svg"] {
            let place = try Place()
            defer { place.remove() }
            try place.write("<!-- tally render 5 -o \"\(output)\" -->\n<!-- /tally -->\n", to: "page.md")
            let before = place.tree
            let error = #expect(throws: CommandFailure.self) {
                _ = try DocsRun.update(
                    paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
            }
            #expect(error?.message.contains("control character") == true, "\(error?.message ?? "")")
            #expect(place.tree == before)
        }
    }

    /// A read-only document is not rewritten (a rename would replace it though it refuses
    /// writes): 73, naming it and how to ask. Its images are not written either.
    @Test func aReadOnlyDocumentIsRefused() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 5 --theme light -o a.svg"), to: "page.md")
        let page = place.doc.appendingPathComponent("page.md").path
        #expect(chmod(page, 0o444) == 0)
        Self.expectRefusedInProcess(place, mentioning: ["is read-only (mode 444); make it writable"])
    }

    /// A folder beside the document's whose name starts with the folder's (`doc` and
    /// `doc-evil`), reached through a link, is outside: containment compares folders, never
    /// the start of a path's text.
    @Test func aSiblingFolderWhoseNameStartsTheSameIsOutside() throws {
        let place = try Place()
        defer { place.remove() }
        let evil = place.base.appendingPathComponent("doc-evil")
        try FileManager.default.createDirectory(at: evil, withIntermediateDirectories: true)
        try place.link("img", to: "../doc-evil")
        try place.write(Self.region("render 5 --theme light -o img/a.svg"), to: "page.md")
        Self.expectRefusedInProcess(place, mentioning: ["'img' leads out of the document's folder"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: evil.path).isEmpty)
    }

    /// A link to nothing where a region needs a folder is refused: the run neither makes the
    /// folder the link names nor writes through it.
    @Test func aDanglingLinkWhereAFolderIsNeededIsRefused() throws {
        let place = try Place()
        defer { place.remove() }
        try place.link("images", to: "missing")
        try place.link("away", to: "../outside/missing")
        for (output, words) in [
            ("images/a.svg", "'images' is a link to nothing"),
            ("away/a.svg", "'away' leads out of the document's folder"),
        ] {
            try place.write(Self.region("render 5 --theme light -o \(output)"), to: "page.md")
            Self.expectRefusedInProcess(place, mentioning: ["page.md:1: cannot write '", words])
        }
    }

    /// A replaced file keeps its mode (a private document stays private, an image's mode as
    /// its owner set it); a new image gets the mode a new file gets.
    @Test func aRunKeepsEachFilesMode() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 5 --theme light -o a.svg"), to: "page.md")
        let page = place.doc.appendingPathComponent("page.md").path
        let image = place.doc.appendingPathComponent("a.svg").path
        #expect(chmod(page, 0o640) == 0)
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        var info = stat()
        let mask = umask(0o022)
        umask(mask)
        #expect(stat(image, &info) == 0 && info.st_mode & 0o7777 == 0o666 & ~mask)
        #expect(stat(page, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        #expect(chmod(image, 0o600) == 0)
        try place.write(Self.region("render 6 --theme light -o a.svg"), to: "page.md")
        #expect(chmod(page, 0o604) == 0)
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("render 6"))
        #expect(stat(page, &info) == 0 && info.st_mode & 0o7777 == 0o604)
        #expect(stat(image, &info) == 0 && info.st_mode & 0o7777 == 0o600)
    }

    /// A run as root keeps a replaced file's owner and group: it never hands a user's document
    /// or image to root.
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func aRunAsRootKeepsEachFilesOwner() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 5 --theme light -o a.svg"), to: "page.md")
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        let page = place.doc.appendingPathComponent("page.md").path
        let image = place.doc.appendingPathComponent("a.svg").path
        #expect(chown(page, 1234, 4321) == 0 && chown(image, 1234, 4321) == 0)
        try place.write(Self.region("render 6 --theme light -o a.svg"), to: "page.md")
        #expect(chown(page, 1234, 4321) == 0)
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        for path in [page, image] {
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_uid == 1234 && info.st_gid == 4321, "\(path)")
        }
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("render 6"))
    }

    /// A run that finds no region says how many documents it read, never "0 regions in 0
    /// documents" for a file it was given.
    @Test func aRunWithoutRegionsSaysWhatItRead() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write("# Notes\n\nNo pictures here.\n", to: "notes.md")
        try place.write("More.\n", to: "more.md")
        let one = try DocsRun.update(
            paths: [place.doc.appendingPathComponent("notes.md").path], check: false,
            operations: SystemFileOperations(), say: { _ in })
        #expect(one == "no region in 1 document read: up to date")
        let two = try DocsRun.update(
            paths: [place.doc.path], check: true, operations: SystemFileOperations(), say: { _ in })
        #expect(two == "no region in 2 documents read: up to date")
    }

    /// Fails every removal of a second name with `code`.
    final class UnremovingOperations: DocsFileOperations, @unchecked Sendable {
        let system = SystemFileOperations()
        func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 { system.write(descriptor, bytes) }
        func rename(in folder: Int32, _ from: String, _ to: String) -> Int32 { system.rename(in: folder, from, to) }
        func remove(in folder: Int32, _ name: String) -> Int32 { EIO }
    }

    /// A second name that cannot be removed once every file is in place is said, naming it, and
    /// the run still succeeds (its files are written); it never reports a clean success.
    @Test func aFailedCleanupIsReported() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 5 --theme light -o a.svg"), to: "page.md")
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        try place.write(Self.region("render 6 --theme light -o a.svg"), to: "page.md")
        var said: [String] = []
        let outcome = try DocsRun.update(
            paths: [place.doc.path], check: false, operations: UnremovingOperations(), say: { said.append($0) })
        #expect(outcome.hasSuffix("wrote 1 image and 1 document"))
        #expect(said.count == 2, "\(said)")
        #expect(
            said.allSatisfy { $0.hasPrefix("tally: warning: cannot remove '") && $0.hasSuffix("remove it by hand") })
        #expect(said.contains { $0.contains("a second name of the old '\(place.doc.path)/a.svg'") }, "\(said)")
    }

    /// A search skips a generated site (`_site`) and installed packages (`node_modules`), saying
    /// so; named on the command line they are searched. A document deeper than the system's
    /// longest path is a warning, never a silent skip.
    @Test func aSearchSkipsGeneratedFoldersAndSaysWhatItCannotReach() throws {
        let place = try Place()
        let long = String(repeating: "d", count: 250)
        defer {
            // A chain too deep for its path is removed a descriptor at a time (FileManager
            // cannot), then the rest.
            let doc = open(place.doc.path, O_RDONLY | O_DIRECTORY)
            Self.removeDeeply(doc, long)
            close(doc)
            place.remove()
        }
        try place.write(Self.region("render 5 --theme light -o a.svg"), to: "docs/page.md")
        try place.write(Self.region("render 6 --theme light -o b.svg"), to: "_site/index.md")
        try place.write(Self.region("render 7 --theme light -o c.svg"), to: "node_modules/p/README.md")
        // A folder chain past PATH_MAX (4,096 bytes), made one step at a time.
        var folder = open(place.doc.path, O_RDONLY | O_DIRECTORY)
        for _ in 0..<18 {
            #expect(mkdirat(folder, long, 0o755) == 0)
            let next = openat(folder, long, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
        }
        let page = openat(folder, "deep.md", O_WRONLY | O_CREAT, 0o644)
        _ = writeFully(page, Array(Self.region("render 8 -o deep.svg").utf8))
        close(page)
        close(folder)
        var said: [String] = []
        let outcome = try DocsRun.update(
            paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { said.append($0) })
        #expect(outcome == "1 region in 1 document: wrote 1 image and 1 document", "\(outcome)")
        #expect(said.contains { $0.contains("_site': a generated site") }, "\(said)")
        #expect(said.contains { $0.contains("node_modules': installed packages") }, "\(said)")
        #expect(
            said.contains { $0.contains("skipped '") && $0.contains(String(long.prefix(40))) },
            "\(said.map { String($0.prefix(200)) })")
        let site = try DocsRun.update(
            paths: [place.doc.appendingPathComponent("_site").path], check: false,
            operations: SystemFileOperations(), say: { _ in })
        #expect(site.hasPrefix("1 region in 1 document"))
    }

    /// SPEC §8: a link found in a search that leads out of the searched folder is skipped,
    /// with a warning, into a sibling folder whose name only starts with the searched one's
    /// (`doc-old` beside `doc`) too: inside is the folder and below it, never a longer name.
    @Test func aSearchedLinkToASiblingFolderIsOutside() throws {
        let place = try Place()
        defer { place.remove() }
        let sibling = place.base.appendingPathComponent("doc-old")
        try FileManager.default.createDirectory(at: sibling, withIntermediateDirectories: true)
        try Data(Self.region("render 5 --theme light -o a.svg").utf8).write(
            to: sibling.appendingPathComponent("page.md"))
        try place.link("page.md", to: "../doc-old/page.md")
        let before = Self.tree(sibling.path)
        var said: [String] = []
        _ = try DocsRun.update(
            paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { said.append($0) })
        #expect(Self.tree(sibling.path) == before)
        #expect(
            said.contains { $0.contains("skipped '") && $0.contains("outside the folder searched") }, "\(said)")
    }

    /// SPEC §8, "a change during the run": a file made where the run writes a new one, after
    /// the run looked and before it reached that file, is never replaced: 74, "changed during
    /// the run", and the file already replaced is put back.
    @Test func aFileMadeWhereTheRunWritesANewOneIsKept() throws {
        let place = try Place()
        defer { place.remove() }
        try place.write(Self.region("render 5 --theme light -o a.svg"), to: "page.md")
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        try place.write(
            Self.region("render 15 --theme light -o a.svg") + Self.region("render 16 --theme light -o new.svg"),
            to: "page.md")
        let made = place.doc.appendingPathComponent("new.svg").path
        let mine = "<svg><!-- mine --></svg>"
        // At the rename of a.svg, the run's first: the run looked for new.svg before it.
        let editing = EditingOperations(at: 0) {
            _ = FileManager.default.createFile(atPath: made, contents: Data(mine.utf8))
        }
        let before = place.tree
        let failure = #expect(throws: CommandFailure.self) {
            _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: editing, say: { _ in })
        }
        #expect(editing.edited)
        #expect(failure?.code == .io)
        #expect(
            failure?.message == "'\(made)' changed during the run; run again (every file is as it was)",
            "\(failure?.message ?? "")")
        #expect(try String(contentsOfFile: made, encoding: .utf8) == mine)
        let after = place.tree
        #expect(!after.keys.contains { String(decoding: $0, as: UTF8.self).contains(".tally-") })
        for (path, entry) in before {
            #expect(after[path] == entry, "\(String(decoding: path, as: UTF8.self))")
        }
    }

    /// Removes `name` in an open folder and everything below it, by descriptors, however deep.
    static func removeDeeply(_ parent: Int32, _ name: String) {
        let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        guard folder >= 0 else {
            _ = unlinkat(parent, name, 0)
            return
        }
        var names: [String] = []
        if let listing = fdopendir(dup(folder)) {
            while let entry = readdir(listing) {
                let child = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if child != "." && child != ".." { names.append(child) }
            }
            closedir(listing)
        }
        for child in names { removeDeeply(folder, child) }
        close(folder)
        _ = unlinkat(parent, name, AT_REMOVEDIR)
    }
}
