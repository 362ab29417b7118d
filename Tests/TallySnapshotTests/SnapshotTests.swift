import Foundation
@preconcurrency import SnapshotTesting
import TallyBadge
import TallyGeometry
import TallyRender
import TallySnapshotTesting
import TallyStyle
import Testing

#if Cairo
import TallyCairo
#endif

/// Locks every threshold of SPEC §2 in each output, byte for byte (text) or pixel by pixel
/// within `PixelTolerance.standard` (PNG). A failure names the count and variant; a PNG
/// failure leaves reference, actual and difference images in `.build/snapshot-failures/`.
@Suite struct SnapshotTests {
    private func check<Format>(
        _ count: TallyCount, as strategy: Snapshotting<TallyCount, Format>, variant: String,
        folder: String, prefix: String = "tally", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // Name both files instead of suggesting a diff tool: the line diff or pixel report follows.
        let failure = withSnapshotTesting(
            diffTool: SnapshotTestingConfiguration.DiffTool { reference, actual in
                "reference: \(reference)\nactual:    \(actual)"
            }
        ) {
            verifySnapshot(
                of: count, as: strategy, named: variant,
                record: SnapshotCatalog.isRecording ? .all : .never,
                snapshotDirectory: SnapshotCatalog.root.appendingPathComponent(folder).path,
                testName: "\(prefix)-\(count.value)")
        }
        if let failure, !SnapshotCatalog.isRecording {
            Issue.record("\(folder)/\(prefix)-\(count.value).\(variant): \(failure)", sourceLocation: sourceLocation)
        }
    }

    private func check(_ count: TallyCount, _ variant: SnapshotCatalog.Variant) {
        for format in variant.formats {
            let settings = variant.settings
            switch format {
            case .svg:
                check(count, as: .svg(settings), variant: variant.name, folder: "svg")
            case .png:
                #if Cairo
                let failures = SnapshotCatalog.failures.appendingPathComponent(
                    "png/tally-\(count.value).\(variant.name)")
                check(count, as: .png(settings, failures: failures), variant: variant.name, folder: "png")
                #endif
            case .json, .pdf:
                break
            }
        }
    }

    @Test(arguments: TallyCount.thresholds)
    func scene(_ count: TallyCount) {
        check(count, as: .scene, variant: "scene", folder: "json")
    }

    @Test(arguments: TallyCount.thresholds)
    func image(_ count: TallyCount) {
        check(count, SnapshotCatalog.standard)
    }

    @Test(arguments: SnapshotCatalog.variantCounts)
    func variants(_ count: TallyCount) {
        for variant in SnapshotCatalog.variants { check(count, variant) }
    }

    @Test(arguments: SnapshotCatalog.goals.indices)
    func goals(_ index: Int) {
        let (count, goal) = SnapshotCatalog.goals[index]
        check(count, SnapshotCatalog.goalVariant(goal))
    }

    /// Badges (SPEC §7), light and dark, as SVG and PNG: `Snapshots/<format>/badge-<count>.<variant>`.
    @Test(arguments: SnapshotCatalog.badges.indices)
    func badges(_ index: Int) throws {
        let (count, goal) = SnapshotCatalog.badges[index]
        for theme in [Theme.light, .dark] {
            let variant = SnapshotCatalog.badgeVariant(goal: goal, theme: theme)
            func bytes(_ format: OutputFormat) -> Data {
                let settings = BadgeSettings(
                    format: format, label: SnapshotCatalog.badgeLabel, goal: goal, appearance: Appearance(theme: theme))
                guard let badge = try? Badge(count: count, goal: goal, label: settings.label),
                    let bytes = try? Renderer.badge(badge, settings)
                else { return Data() }
                return Data(bytes)
            }
            let svg = Snapshotting<String, String>(pathExtension: "svg", diffing: .lines).pullback { (_: TallyCount) in
                String(decoding: bytes(.svg), as: UTF8.self)
            }
            check(count, as: svg, variant: variant, folder: "svg", prefix: "badge")
            #if Cairo
            let failures = SnapshotCatalog.failures.appendingPathComponent("png/badge-\(count.value).\(variant)")
            let png = Snapshotting<Data, Data>.png(failures: failures).pullback { (_: TallyCount) in bytes(.png) }
            check(count, as: png, variant: variant, folder: "png", prefix: "badge")
            #endif
        }
    }

    /// A render that fails inside a strategy is a test failure (so recording cannot
    /// store an empty reference that every later run passes).
    @Test func aFailedRenderIsATestFailure() async {
        let tooLarge = RenderSettings(side: .longer(100_000))
        #if Cairo
        for strategy in [Snapshotting<TallyCount, Data>.png(tooLarge)] {
            await withKnownIssue {
                let data: Data = await withCheckedContinuation { done in
                    strategy.snapshot(TallyCount(exactly: 5)!).run { done.resume(returning: $0) }
                }
                #expect(PNGImage(png: Array(data)) == nil)
            }
        }
        #endif
        await withKnownIssue {
            _ = await withCheckedContinuation { done in
                Snapshotting<TallyCount, String>.svg(tooLarge).snapshot(TallyCount(exactly: 5)!).run {
                    done.resume(returning: $0)
                }
            }
        }
    }

    /// Strategies built by composition from one base per format, for counts and for
    /// scenes of your own (here recoloured), PDF as well.
    @Test func strategiesComposeForScenesAndCounts() async throws {
        let scene = TallyScene(count: 137)
        let recoloured = TallyScene(
            count: scene.count, canvas: scene.canvas,
            marks: scene.marks.map { mark in
                var mark = mark
                mark.color = .accent
                return mark
            })
        let svg: String = await withCheckedContinuation { done in
            Snapshotting<TallyScene, String>.svg().snapshot(recoloured).run { done.resume(returning: $0) }
        }
        // The default SVG is auto on a transparent background: SPEC §3's mid accent for a light OS.
        #expect(svg.hasPrefix("<svg") && svg.contains(".box{stroke:#f2594d"))
        #if Cairo
        let png: Data = await withCheckedContinuation { done in
            Snapshotting<TallyScene, Data>.png().snapshot(recoloured).run { done.resume(returning: $0) }
        }
        let image = try #require(PNGImage(png: Array(png)))
        #expect(image.width == 256)
        let pdf: Data = await withCheckedContinuation { done in
            Snapshotting<TallyCount, Data>.pdf().snapshot(137).run { done.resume(returning: $0) }
        }
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        #endif
    }

    /// The index shows every reference; it is written when recording and must match otherwise.
    @Test func indexShowsEveryReference() throws {
        let url = SnapshotCatalog.root.appendingPathComponent("index.html")
        let html = SnapshotCatalog.indexHTML
        if SnapshotCatalog.isRecording {
            // The references are being written alongside; the run after recording checks them.
            try Data(html.utf8).write(to: url)
            return
        } else {
            let stored = try? String(contentsOf: url, encoding: .utf8)
            #expect(stored == html, "Snapshots/index.html is out of date: run make snapshots")
        }
        for entry in SnapshotCatalog.images {
            #expect(
                FileManager.default.fileExists(atPath: SnapshotCatalog.root.appendingPathComponent(entry.path).path),
                "the index shows \(entry.path), which is not recorded")
        }
    }
}
