import Foundation
import TallyTestSupport
import Testing

/// Cairo is loaded when a PNG or PDF is drawn, never at start (SPEC §6): every other command
/// starts without mapping its libraries, and a machine without libcairo still draws SVG and
/// JSON, and refuses PNG in one line naming the package (exit 69).
@Suite struct CairoLoadingTests {
    /// The libraries the dynamic loader opened for one run (glibc's `LD_DEBUG=files`).
    private func librariesOpened(_ arguments: [String]) throws -> (run: TallyRun, cairo: Bool) {
        let run = try TallyProcess.run(arguments, environment: ["LD_DEBUG": "files"])
        return (run, run.stderr.contains("libcairo"))
    }

    #if os(Linux)
    @Test(arguments: [
        ["render", "1", "-f", "svg"], ["render", "9999", "-f", "json"], ["render", "137", "-f", "term"],
        ["describe", "137"], ["--help"], ["render", "--help"], ["badge", "137"],
    ])
    func commandsThatDrawNoRasterLoadNoCairo(_ arguments: [String]) throws {
        let (run, cairo) = try librariesOpened(arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr.suffix(300))")
        #expect(!cairo, "\(arguments) loaded libcairo")
    }

    /// The check above can fail: a PNG does load libcairo, once.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func aPNGLoadsCairo() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (run, cairo) = try librariesOpened(["render", "137", "-o", directory.appendingPathComponent("t.png").path])
        #expect(run.status == 0)
        #expect(cairo)
    }

    /// The installed libcairo, hidden for one run by mounting an empty file over it in a private
    /// mount namespace (`unshare -m`; the machine's own file is untouched).
    static let libcairo = [
        "/usr/lib/x86_64-linux-gnu/libcairo.so.2", "/usr/lib/aarch64-linux-gnu/libcairo.so.2",
        "/usr/lib64/libcairo.so.2", "/usr/lib/libcairo.so.2",
    ].first { FileManager.default.fileExists(atPath: $0) }
    static let canHideLibraries: Bool = {
        guard let unshare = installedProgram("unshare"), libcairo != nil else { return false }
        return (try? runProgram(unshare, ["-m", "true"]).status) == 0
    }()

    @Test(
        .enabled(
            if: cairoIsBuiltIn && (canHideLibraries || isCI),
            "needs the Cairo trait, unshare -m (root) and an installed libcairo.so.2"))
    func withoutLibcairoPNGIsRefusedAndSVGStillDrawn() throws {
        let unshare = try #require(installedProgram("unshare"))
        let libcairo = try #require(Self.libcairo)
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("t.png").path
        let svg = directory.appendingPathComponent("t.svg").path
        let tally = TallyProcess.executable.path
        // One shell in the private namespace: hide the library, then run both commands, each
        // reporting its status and stderr.
        let script = """
            mount --bind /dev/null '\(libcairo)' || exit 99
            '\(tally)' render 137 -o '\(png)' 2>'\(directory.path)/png.err'; echo "png $?"
            '\(tally)' render 137 -o '\(svg)' 2>'\(directory.path)/svg.err'; echo "svg $?"
            """
        let run = try runProgram(unshare, ["-m", "sh", "-c", script])
        let lines = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines == ["png 69", "svg 0"], "\(lines) \(run.stderr)")
        let message = try String(contentsOfFile: "\(directory.path)/png.err", encoding: .utf8)
        #expect(message.hasPrefix("tally: error: png needs the Cairo library: "), "\(message)")
        #expect(message.contains("install libcairo2"), "\(message)")
        #expect(message.split(separator: "\n").count == 1, "\(message)")
        #expect(!FileManager.default.fileExists(atPath: png), "a refused PNG left a file")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg"))
    }
    #endif
}
