import PropertyBased
import TallyDocs
import Testing

/// The planner of `tally docs` (SPEC §8), with a stand-in for the command line: a region's
/// command is `draw FILE [auto] [scales]`, and each file's bytes name how it was drawn.
@Suite struct DocsPlannerTests {
    /// Reads `render|badge FILE [auto] [scales=1,2] [fail]`.
    static func read(_ words: [String]) throws(DocsFailure) -> DocsPlanner.Command {
        guard words.count >= 2 else { throw DocsFailure("needs a file") }
        if words.contains("bad") { throw DocsFailure("count '-1' is negative", code: 64) }
        let scales = words.first { $0.hasPrefix("scales=") }.map {
            $0.dropFirst(7).split(separator: ",").map(String.init)
        }
        let request = ImageRequest(
            output: words[1], format: words[1].hasSuffix(".png") ? .png : .svg,
            followsColorScheme: words.contains("auto"),
            scales: scales ?? [], alt: "alt of \(words[1]) & <b>")
        let fails = words.contains("fail")
        return DocsPlanner.Command(request: request) { image throws(DocsFailure) in
            if fails { throw DocsFailure("too large", code: 64) }
            let svg =
                "<svg xmlns=\"x\" width=\"40\" height=\"20\">\(image.reference) \(image.theme ?? "-") \(image.scale ?? "-")</svg>"
            return Array(svg.utf8)
        }
    }

    /// Plans `documents` against a file system held in `files`.
    static func plan(_ documents: [(String, String)], files: [String: [UInt8]] = [:]) -> DocsPlan {
        DocsPlanner.plan(
            documents.map { DocsPlanner.Document(path: $0.0, bytes: Array($0.1.utf8)) }, readCommand: read,
            existing: { path, bytes in
                guard let there = files[path] else { return .missing }
                return there == bytes ? .same : .different
            })
    }

    /// Applies a plan's writes to `files`.
    static func applied(_ plan: DocsPlan, to files: [String: [UInt8]]) -> [String: [UInt8]] {
        var files = files
        for write in plan.writes { files[write.path] = write.bytes }
        return files
    }

    @Test func aRunWritesImagesThenTheDocumentAndASecondRunNothing() throws {
        let readme = "# A\n<!-- tally render images/a.svg -->\n<!-- /tally -->\ntext\n"
        let first = Self.plan([("docs/README.md", readme)])
        #expect(first.failures.isEmpty)
        #expect(first.writes.map(\.path) == ["docs/images/a.svg", "docs/README.md"])
        #expect(first.writes.map(\.isImage) == [true, false])
        #expect(
            first.stale.map(\.description) == [
                "docs/README.md:2: image 'docs/images/a.svg' is missing",
                "docs/README.md:2: the reference is out of date",
            ])
        let written = try #require(first.writes.last?.bytes)
        #expect(
            String(decoding: written, as: UTF8.self)
                == "# A\n<!-- tally render images/a.svg -->\n<picture><img src=\"images/a.svg\" alt=\"alt of images/a.svg &amp; &lt;b&gt;\" width=\"40\" height=\"20\"></picture>\n<!-- /tally -->\ntext\n"
        )
        var files = Self.applied(first, to: [:])
        files["docs/README.md"] = nil
        let second = Self.plan([("docs/README.md", String(decoding: written, as: UTF8.self))], files: files)
        #expect(second.writes.isEmpty && second.stale.isEmpty && second.regions == 1 && second.documents == 1)
    }

    @Test func anyBadRegionStopsEveryWrite() {
        let good = "<!-- tally render a.svg -->\n<!-- /tally -->\n"
        for bad in [
            "x\n<!-- tally render b.svg bad -->\n<!-- /tally -->\n",
            "x\n<!-- tally render b.svg fail -->\n<!-- /tally -->\n",
            "x\n<!-- tally render ../b.svg -->\n<!-- /tally -->\n", "x\n<!-- tally render a.svg -->\n<!-- /tally -->\n",
            "x\n<!-- tally render b.svg -->\n", "x\n<!-- tally -->\n<!-- /tally -->\n",
            "x\n<!-- tally render 'b.svg -->\n<!-- /tally -->\n",
        ] {
            let plan = Self.plan([("README.md", good), ("other.md", bad)])
            #expect(plan.writes.isEmpty, "\(bad)")
            #expect(plan.failures.map(\.path) == ["other.md"], "\(bad)")
            #expect(plan.failures.first?.line == 2, "\(bad)")
        }
    }

    @Test func twoRegionsWritingOneFileAreRefused() {
        let plan = Self.plan([
            ("README.md", "<!-- tally render img/a.svg -->\n<!-- /tally -->\n"),
            ("docs/../x.md", "<!-- tally render ./img/../img/a.svg -->\n<!-- /tally -->\n"),
            (
                "y.md",
                "<!-- tally render img/a.png auto -->\n<!-- /tally -->\n<!-- tally render img/a-dark.png -->\n<!-- /tally -->\n"
            ),
        ])
        #expect(
            plan.failures.map(\.description).contains {
                $0.hasPrefix("y.md:3: 'img/a-dark.png' is written by y.md:1 too")
            })
    }

    @Test func aPNGThatFollowsTheSchemeIsAPictureWithADarkSource() throws {
        let plan = Self.plan([("README.md", "<!-- tally render a.png auto scales=1,2 -->\n<!-- /tally -->\n")])
        #expect(plan.writes.filter(\.isImage).map(\.path) == ["a.png", "a@2x.png", "a-dark.png", "a-dark@2x.png"])
        let document = String(decoding: try #require(plan.writes.last?.bytes), as: UTF8.self)
        #expect(
            document.contains(
                "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"a-dark.png 1x, a-dark@2x.png 2x\"><img src=\"a.png\" srcset=\"a.png 1x, a@2x.png 2x\" alt="
            ))
    }

    @Test func anSVGThatFollowsTheSchemeKeepsItsOwnFileForTheImg() throws {
        let plan = Self.plan([("README.md", "<!-- tally badge b.svg auto --><!-- /tally -->")])
        #expect(plan.writes.filter(\.isImage).map(\.path) == ["b.svg", "b-light.svg", "b-dark.svg"])
        let image = try #require(plan.writes.first)
        #expect(String(decoding: image.bytes, as: UTF8.self).contains("b.svg - -"))
        let document = String(decoding: try #require(plan.writes.last?.bytes), as: UTF8.self)
        #expect(
            document
                == "<!-- tally badge b.svg auto --><picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"b-dark.svg\"><source media=\"(prefers-color-scheme: light)\" srcset=\"b-light.svg\"><img src=\"b.svg\" alt=\"alt of b.svg &amp; &lt;b&gt;\" width=\"40\" height=\"20\"></picture><!-- /tally -->"
        )
    }

    /// DocC finds an image by its name alone, in any folder and case: two regions of one
    /// catalogue whose files share such a name are refused, naming both.
    @Test func doccNamesThatCollideAreRefused() {
        for (first, second) in [
            ("Images/logo.png", "Resources/logo.png"), ("Resources/Logo.png", "Resources/logo.png"),
            ("Resources/chart.png", "Images/Chart.svg"),
        ] {
            let plan = Self.plan([
                ("Sources/A/A.docc/Guide.md", "<!-- tally render \(first) -->\n<!-- /tally -->\n"),
                ("Sources/A/A.docc/More.md", "<!-- tally render \(second) -->\n<!-- /tally -->\n"),
            ])
            #expect(plan.writes.isEmpty, "\(first), \(second)")
            #expect(
                plan.failures.contains {
                    $0.message.contains("have one DocC name") && $0.message.contains("Guide.md:1")
                },
                "\(plan.failures)")
        }
        // Names that differ stay apart, and documents outside a catalogue are not DocC's.
        let apart = Self.plan([
            ("Sources/A/A.docc/Guide.md", "<!-- tally render Resources/one.png -->\n<!-- /tally -->\n"),
            ("Sources/A/A.docc/More.md", "<!-- tally render Resources/two.png -->\n<!-- /tally -->\n"),
            ("docs/a.md", "<!-- tally render img/one.png -->\n<!-- /tally -->\n"),
            ("docs/b.md", "<!-- tally render IMG/One.png -->\n<!-- /tally -->\n"),
        ])
        #expect(apart.failures.isEmpty, "\(apart.failures)")
    }

    @Test func doccCataloguesGetDocCNamesAndReference() throws {
        let plan = Self.plan([
            (
                "Sources/A/A.docc/Guide.md",
                "<!-- tally render Resources/count.png auto scales=1,2 -->\n<!-- /tally -->\n"
            )
        ])
        #expect(
            plan.writes.filter(\.isImage).map(\.path) == [
                "Sources/A/A.docc/Resources/count.png", "Sources/A/A.docc/Resources/count@2x.png",
                "Sources/A/A.docc/Resources/count~dark.png", "Sources/A/A.docc/Resources/count~dark@2x.png",
            ])
        let document = String(decoding: try #require(plan.writes.last?.bytes), as: UTF8.self)
        #expect(document.contains("\n![alt of Resources/count.png & <b>](count)\n"))
    }

    /// For any set of regions with distinct outputs: every planned file is inside its
    /// document's folder, no two share a path, every file the reference names is written, and
    /// a second run over the result writes nothing.
    @Test func plansAreClosedAndSettle() async throws {
        let outputs = ["a.svg", "img/b.png", "./c.svg", "img/../d.png", "'e f.svg'", "g.png"]
        let modifiers = ["", " auto", " scales=1,2", " auto scales=2,1", " scales=3"]
        await propertyCheck(
            count: 300,
            input: Gen<Int>.value(in: 0..<outputs.count).set(ofAtMost: 1...6),
            Gen<Int>.value(in: 0...1_000).array(of: 6), Gen<Int>.value(in: 0...2)
        ) { chosen, modifierIndices, folderIndex in
            let modifierList = modifierIndices.map { modifiers[$0 % modifiers.count] }
            let folder = ["", "sub/", "x.docc/"][folderIndex]
            var text = "intro\n"
            for (index, choice) in chosen.sorted().enumerated() {
                let output = outputs[choice]
                var modifier = modifierList[index]
                if output.contains(".svg") && modifier.contains("1,2") { modifier = "" }
                if output.contains(".svg") && modifier.contains("2,1") { modifier = " auto" }
                text += "<!-- tally render \(output)\(modifier) -->\n<!-- /tally -->\n"
            }
            let path = folder + "doc.md"
            let plan = Self.plan([(path, text)])
            #expect(plan.failures.isEmpty, "\(plan.failures)")
            let images = plan.writes.filter(\.isImage).map(\.path)
            #expect(Set(images).count == images.count)
            #expect(images.allSatisfy { $0.hasPrefix(folder) && !$0.contains("..") && !$0.contains("./") })
            let document = String(decoding: plan.writes.last?.bytes ?? [], as: UTF8.self)
            if !folder.hasSuffix(".docc/") {
                for image in images {
                    let reference = ImageReference.url(String(image.dropFirst(folder.count)))
                    #expect(document.contains("\"\(reference)") || document.contains(" \(reference) "), "\(reference)")
                }
            }
            let files = Self.applied(plan, to: [:])
            let again = Self.plan([(path, document)], files: files)
            #expect(again.writes.isEmpty && again.stale.isEmpty)
        }
    }

    /// SPEC §8: in a `.docc` catalogue the inside is the catalogue, so an article's -o may
    /// climb to the catalogue's Resources, and no further.
    @Test func inACatalogueTheInsideIsTheCatalogue() {
        let article = "x\n<!-- tally render ../Resources/a.png -->\n<!-- /tally -->\n"
        let plan = Self.plan([("Sources/A/A.docc/Articles/Guide.md", article)])
        #expect(plan.failures.isEmpty)
        #expect(plan.writes.first?.path == "Sources/A/A.docc/Resources/a.png")
        let out = Self.plan([
            ("Sources/A/A.docc/Articles/Guide.md", "x\n<!-- tally render ../../Resources/a.png -->\n<!-- /tally -->\n")
        ])
        #expect(
            out.failures.map(\.description) == [
                "Sources/A/A.docc/Articles/Guide.md:2: -o '../../Resources/a.png' leaves the catalogue; keep the images in it"
            ])
        #expect(
            Self.plan([("docs/Guide.md", article)]).failures.first?.message.contains("leaves the document's folder")
                == true)
    }

    /// SPEC §8: the catalogue is found on the document's real folder, so an article named from
    /// inside it (`a.md`, run in `A.docc/Articles`) writes `../Images/x.png` as one named from
    /// outside does, with DocC's reference by file name, and still no further than the catalogue.
    @Test func aCatalogueIsFoundOnTheRealFolder() throws {
        func plan(_ output: String) -> DocsPlan {
            let article = "x\n<!-- tally render \(output) scales=1,2 -->\n<!-- /tally -->\n"
            return DocsPlanner.plan(
                [DocsPlanner.Document(path: "a.md", bytes: Array(article.utf8), realFolder: "/w/A.docc/Articles")],
                readCommand: Self.read, existing: { _, _ in .missing })
        }
        let inside = plan("../Images/x.png")
        #expect(inside.failures.isEmpty)
        #expect(inside.writes.map(\.path) == ["../Images/x.png", "../Images/x@2x.png", "a.md"])
        let document = String(decoding: try #require(inside.writes.last).bytes, as: UTF8.self)
        #expect(document.contains("\n![alt of ../Images/x.png & <b>](x)\n"))
        #expect(
            plan("../../x.png").failures.map(\.description) == [
                "a.md:2: -o '../../x.png' leaves the catalogue; keep the images in it"
            ])
    }

    /// SPEC §8: a region writes only images, so its files end in its format's extension.
    @Test func anOutputEndsInItsFormatsExtension() {
        let plan = Self.plan([("a.md", "x\n<!-- tally render notes.md -->\n<!-- /tally -->\n")])
        #expect(plan.writes.isEmpty)
        #expect(
            plan.failures.map(\.description) == [
                "a.md:2: -o 'notes.md' ends in .md; a region that draws svg writes a .svg file"
            ])
        #expect(Self.plan([("a.md", "<!-- tally render A.SVG -->\n<!-- /tally -->\n")]).failures.isEmpty)
    }

    /// Files are told apart by the name the target reader gives them (the command line's
    /// resolves links), and its refusal names the region with its exit code.
    @Test func theTargetReaderNamesAndRefusesFiles() {
        let documents = [
            DocsPlanner.Document(path: "a.md", bytes: Array("<!-- tally render x.svg -->\n<!-- /tally -->\n".utf8)),
            DocsPlanner.Document(
                path: "b.md", bytes: Array("\n<!-- tally render self/x.svg -->\n<!-- /tally -->\n".utf8)),
        ]
        let clash = DocsPlanner.plan(
            documents, readCommand: Self.read,
            target: { image, _ in image.path.hasPrefix("self/") ? String(image.path.dropFirst(5)) : image.path },
            existing: { _, _ in .missing })
        #expect(
            clash.failures.map(\.description) == [
                "b.md:2: 'self/x.svg' is written by a.md:1 too; give each region its own -o"
            ])
        let refused = DocsPlanner.plan(
            documents, readCommand: Self.read,
            target: { image, _ throws(DocsFailure) in throw DocsFailure("cannot write '\(image.path)'", code: 73) },
            existing: { _, _ in .missing })
        #expect(refused.failures.map(\.code) == [73, 73] && refused.writes.isEmpty)
        #expect(refused.failures.first?.description == "a.md:1: cannot write 'x.svg'")
    }

    /// SPEC §8: a document that the update would take past the limit is refused before
    /// anything is written, naming the region whose reference takes it past.
    @Test func aDocumentPastTheLimitAfterTheUpdateIsRefused() throws {
        let text = "# A\n<!-- tally render a.svg -->\n<!-- /tally -->\n<!-- tally render b.svg -->\n<!-- /tally -->\n"
        func plan(_ limit: Int) -> DocsPlan {
            DocsPlanner.plan(
                [DocsPlanner.Document(path: "a.md", bytes: Array(text.utf8))], readCommand: Self.read,
                existing: { _, _ in .missing }, maximumDocumentBytes: limit)
        }
        let updated = try #require(plan(.max).writes.last?.bytes.count)
        #expect(plan(updated).failures.isEmpty)
        for (limit, line) in [(updated - 1, 4), (text.utf8.count + 1, 2)] {
            let refused = plan(limit)
            #expect(refused.writes.isEmpty)
            #expect(refused.failures.map(\.line) == [line])
            #expect(refused.failures.first?.message.contains("takes the document past \(limit) bytes") == true)
        }
        #expect(plan(16 << 20).failures.isEmpty)
    }

    @Test func pathsAndSizes() throws {
        #expect(ImagePlan.folder(of: "README.md") == "")
        #expect(ImagePlan.folder(of: "docs/a/b.md") == "docs/a")
        #expect(ImagePlan.isInDocC("Sources/T/T.docc/Articles/a.md"))
        #expect(!ImagePlan.isInDocC("docs/a.docc.md"))
        #expect(ImageReference.url("a b/ü.svg") == "a%20b/%C3%BC.svg")
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [
                0, 0, 2, 0, 0, 0, 0, 0xD1,
            ]
        let size = try #require(ImageSize.of(png, format: .png, scale: 2))
        #expect(size.width == 256 && size.height == 105)
        let svg = Array(
            "<?xml?><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"103.5\" viewBox=\"0 0 1 1\">".utf8)
        let svgSize = try #require(ImageSize.of(svg, format: .svg, scale: 1))
        #expect(svgSize.width == 256 && svgSize.height == 104)
    }
}
