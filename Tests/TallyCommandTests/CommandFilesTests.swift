import Foundation
import TallyTestSupport
import Testing

/// A command line and a docs region that say the same write the same files with the same bytes
/// (SPEC §6, §8): a list of scales is one PNG a density, a PNG whose theme is auto a light and
/// dark pair, whichever command draws it.
@Suite(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG)")) struct CommandFilesTests {
    /// Every file below `folder` but `skip`, by name, with its bytes.
    static func files(in folder: URL, skipping skip: String? = nil) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name != skip {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// A PNG's width and height, from its IHDR.
    static func size(_ png: Data) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](png)
        try #require(bytes.count > 24)
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// The command writes exactly the region's files, byte for byte: the files named as a
    /// region names them, and each drawn with its own scale and theme.
    @Test(
        .processTimeLimit(minutes: 2),
        arguments: [
            (["render", "137", "--scale", "1,2", "-f", "png"], ["a.png", "a@2x.png"]),
            (["render", "137", "--scale", "2,1", "--size", "64"], ["a.png", "a@2x.png"]),
            (["render", "99", "--theme", "auto", "--size", "64"], ["a.png", "a-dark.png"]),
            (
                ["render", "9999", "--theme", "auto", "--scale", "1,2", "--background", "paper"],
                ["a.png", "a@2x.png", "a-dark.png", "a-dark@2x.png"]
            ),
            (
                [
                    "render", "6200", "--of", "10000", "--style", "ink", "--seed", "7", "--padding", "4", "--caption",
                    "--label", "six", "--ink", "#123456", "--width", "90", "--scale", "1,2", "--theme", "auto",
                ],
                ["a.png", "a@2x.png", "a-dark.png", "a-dark@2x.png"]
            ),
            (["badge", "1234", "--label", "downloads", "--scale", "1,3"], ["a.png", "a@3x.png"]),
            (["badge", "6200", "--of", "10000", "--theme", "auto"], ["a.png", "a-dark.png"]),
            (["gallery", "1", "25", "137", "--scale", "1,2", "--size", "48"], ["a.png", "a@2x.png"]),
        ])
    func theCommandWritesTheRegionsFiles(_ command: [String], _ names: [String]) throws {
        try startingAProcess()
        let root = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let cli = root.appendingPathComponent("cli")
        let docs = root.appendingPathComponent("docs")
        for folder in [cli, docs] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        }

        let run = try TallyProcess.run(command + ["-o", "a.png"], directory: cli)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let words = (command + ["-o", "a.png"]).joined(separator: " ")
        try Data("<!-- tally \(words) -->\n<!-- /tally -->\n".utf8).write(to: docs.appendingPathComponent("page.md"))
        let region = try TallyProcess.run(["docs", "page.md"], directory: docs)
        #expect(region.status == 0, "\(region.stderr)")

        let written = try Self.files(in: cli)
        #expect(written.keys.sorted() == names.sorted())
        #expect(written == (try Self.files(in: docs, skipping: "page.md")))
        // Each density of a tally or a badge is its scale times the 1x file's size (a gallery
        // lays its sheet out anew at each scale).
        guard command[0] != "gallery" else { return }
        let unit = try Self.size(try #require(written["a.png"]))
        for (name, bytes) in written {
            guard let at = name.firstIndex(of: "@") else { continue }
            let scale = try #require(Int(name[name.index(after: at)...].prefix { $0.isNumber }))
            let size = try Self.size(bytes)
            #expect(abs(size.width - scale * unit.width) <= scale && abs(size.height - scale * unit.height) <= scale)
        }
    }

    /// A gallery drawn into a pair reads its counts from standard input once: both files show
    /// the counts, as when they are written out.
    @Test(.processTimeLimit(minutes: 1))
    func aGallerysPairReadsStandardInputOnce() throws {
        try startingAProcess()
        let root = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (piped, written) = (root.appendingPathComponent("piped"), root.appendingPathComponent("written"))
        for folder in [piped, written] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        let options = ["--theme", "auto", "--size", "48", "-o", "a.png"]
        let run = try TallyProcess.run(["gallery", "-"] + options, directory: piped, stdin: Data("1\n25\n137\n".utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try TallyProcess.run(["gallery", "1", "25", "137"] + options, directory: written).status == 0)
        let files = try Self.files(in: piped)
        #expect(files.keys.sorted() == ["a-dark.png", "a.png"])
        #expect(files == (try Self.files(in: written)))
    }

    /// What cannot be one file a density is one line naming `--scale` and its value, exit 64,
    /// and no file written.
    @Test(
        .processTimeLimit(minutes: 1),
        arguments: [
            (["render", "137", "--scale", "1,2", "-f", "png"], "--scale '1,2' is a list of densities, one file each"),
            (
                ["render", "137", "--scale", "1,2", "-f", "png", "-o", "/proc/self/fd/1"],
                "--scale '1,2' is a list of densities, one file each"
            ),
            (
                ["render", "137", "--scale", "1,2", "-o", "a.svg"],
                "--scale '1,2' is a list of densities, which is for PNG"
            ),
            (["render", "137", "--scale", "1,2", "-o", "a.pdf"], "--scale '1,2' is a list of densities, one PNG each"),
            (["render", "137", "--scale", "1,x", "-o", "a.png"], "--scale 'x' is not a number"),
            (["render", "137", "--scale", "2,2", "-o", "a.png"], "--scale lists '2' twice"),
            (["badge", "5", "--scale", "1,0", "-o", "a.png"], "--scale '0' must be a positive number"),
        ])
    func aListThatCannotBeWrittenIsOneLine(_ command: [String], _ message: String) throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try TallyProcess.run(command, directory: folder)
        expectOneLineError(run, status: 64, mentioning: message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

/// The light and dark PNGs of an auto region are drawn for GitHub's pages (SPEC §3, §8): a
/// transparent background, and edges whose anti-aliasing is coverage in the alpha channel over
/// the pen's own colour (straight alpha from Cairo's premultiplied pixels), matted against
/// nothing. Decoded by `Tests/Support/png-pixels`, nothing of tally's, and laid on the page.
@Suite(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG)")) struct PagePictureTests {
    static let python = installedProgram("python3")
    static let decoder = TallyProcess.packageRoot.appendingPathComponent("Tests/Support/png-pixels")

    /// The pens of SPEC §3's mid tones (auto on a transparent background: each file of a pair
    /// may be shown on either scheme, SPEC §2), as the SPEC writes them, and GitHub's page of
    /// each file's own scheme and of the other.
    static let schemes: [(file: String, page: UInt32, other: UInt32, pens: [UInt32])] = [
        ("p.png", 0xFF_FFFF, 0x0D_1117, [0x68_686D, 0x6B_6B70, 0x8C_8C91, 0xF2_594D]),
        ("p-dark.png", 0x0D_1117, 0xFF_FFFF, [0x8F_8F94, 0x8C_8C91, 0x6B_6B70, 0xC4_382C]),
    ]

    static func luminance(_ rgb: UInt32) -> Double {
        func linear(_ shift: UInt32) -> Double {
            let c = Double((rgb >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(16) + 0.7152 * linear(8) + 0.0722 * linear(0)
    }

    static func contrast(_ a: UInt32, _ b: UInt32) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// Straight RGBA pixels, rows top to bottom, and the width.
    static func decoded(_ file: URL) throws -> (rgba: [UInt8], width: Int) {
        let python = try #require(python, "python3 is missing")
        let out = file.deletingPathExtension().appendingPathExtension("rgba")
        let run = try runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "\"$0\" \"$1\" \"$2\" > \"$3\"", python.path, decoder.path, file.path, out.path])
        try #require(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: out))
        let newline = try #require(bytes.firstIndex(of: 10))
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        try #require(fields.count == 4 && (newline + 1 + fields[0] * fields[1] * 4) == bytes.count)
        return (Array(bytes[(newline + 1)...]), fields[0])
    }

    @Test(.enabled(if: canRun(python), "needs python3"), .processTimeLimit(minutes: 1))
    func anAutoRegionsPNGsSitOnTheirPages() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<!-- tally render 137 --theme auto -o p.png -->\n<!-- /tally -->\n".utf8)
            .write(to: folder.appendingPathComponent("page.md"))
        let run = try TallyProcess.run(["docs", "page.md"], directory: folder)
        try #require(run.status == 0, "\(run.stderr)")

        for scheme in Self.schemes {
            let (rgba, width) = try Self.decoded(folder.appendingPathComponent(scheme.file))
            let height = rgba.count / 4 / width
            var (clear, solid, edges) = (0, 0, 0)
            var lowest = Double.infinity
            var opaque: Set<UInt32> = []
            for index in 0..<(rgba.count / 4) {
                let (r, g, b, a) = (rgba[4 * index], rgba[4 * index + 1], rgba[4 * index + 2], rgba[4 * index + 3])
                let rgb = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                let (x, y) = (index % width, index / width)
                if x == 0 || y == 0 || x == width - 1 || y == height - 1 {
                    // No box: the margin is transparent, so the page shows through unchanged.
                    #expect(a == 0, "\(scheme.file): (\(x), \(y)) has alpha \(a)")
                }
                guard a > 0 else {
                    clear += 1
                    continue
                }
                if a == 255 {
                    // Solid: a pen, or where one pen's edge lies over another, a mix of two; at
                    // least 3:1 on its page either way.
                    solid += 1
                    opaque.insert(rgb)
                    lowest = min(lowest, Self.contrast(rgb, scheme.page), Self.contrast(rgb, scheme.other))
                } else {
                    edges += 1
                }
                // Pens at partial coverage, never blended with a paper: each channel within the
                // pens' range, give or take straight alpha's rounding.
                let slack = 255 / Int(a) + (a == 255 ? -1 : 1)
                for shift in [UInt32(16), 8, 0] {
                    let channel = Int((rgb >> shift) & 0xFF)
                    let range = scheme.pens.map { Int(($0 >> shift) & 0xFF) }
                    #expect(
                        channel >= range.min()! - slack && channel <= range.max()! + slack,
                        "\(scheme.file): (\(x), \(y)) is \(String(rgb, radix: 16)) at alpha \(a)")
                }
            }
            // The strokes' pen (c1) and the slash's (accent) are drawn as the SPEC gives them.
            #expect(opaque.contains(scheme.pens[0]) && opaque.contains(scheme.pens[3]), "\(scheme.file)")
            #expect(clear > rgba.count / 8 && solid > 0 && edges > 0, "\(scheme.file): \(clear) \(solid) \(edges)")
            #expect(lowest >= 3, "\(scheme.file): \(lowest):1 on a page of either scheme")
        }
    }
}
