import Foundation
import TallyGeometry
import TallyRender
import TallyStyle

/// What `Snapshots/` holds: the scene, SVG and PNG of every threshold, and for a subset of
/// counts the dark, auto, ink, animated, fit-frame, 64 px, caption and no-inset variants. File names say what they
/// hold: `Snapshots/<format>/tally-<count>.<variant>.<extension>`.
enum SnapshotCatalog {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Where failed image comparisons leave their pictures (`.build/` stays out of git).
    static let failures = root.deletingLastPathComponent().appendingPathComponent(".build/snapshot-failures")

    struct Variant: Sendable {
        let name: String
        let formats: [OutputFormat]
        let settings: RenderSettings
    }

    /// Every threshold, as the default look.
    static let standard = Variant(name: "light", formats: [.svg, .png], settings: RenderSettings())

    /// The counts that also get the variants: each form from the empty frame to the largest count.
    static let variantCounts: [TallyCount] = [0, 5, 25, 99, 100, 1000, 9999, 10000, 1_234_567].map {
        TallyCount(exactly: $0)!
    }

    static let variants: [Variant] = [
        Variant(
            name: "dark", formats: [.svg, .png],
            settings: RenderSettings(appearance: Appearance(theme: .dark, background: .paper))),
        Variant(name: "auto", formats: [.svg], settings: RenderSettings(appearance: Appearance(theme: .auto))),
        Variant(name: "ink", formats: [.svg, .png], settings: RenderSettings(style: .ink, seed: 1)),
        Variant(name: "animate", formats: [.svg], settings: RenderSettings(animation: .all)),
        Variant(name: "fit-frame", formats: [.svg, .png], settings: RenderSettings(fit: .frame)),
        // The smallest size SPEC's partial-progress rule names: level of detail, pens and progress marks.
        Variant(name: "64px", formats: [.svg, .png], settings: RenderSettings(side: .longer(64))),
        // The count in the core's stroke font under the tally.
        Variant(name: "caption", formats: [.svg, .png], settings: RenderSettings(caption: true)),
        // `--no-inset` (SPEC §2, "An inset for the last digits"): the picture alone, as every
        // default was before the inset was drawn by default.
        Variant(name: "no-inset", formats: [.svg, .png], settings: noInset),
    ]

    /// The settings of `--no-inset`.
    static let noInset: RenderSettings = {
        var settings = RenderSettings()
        settings.inset = false
        return settings
    }()

    /// Progress toward a goal (`--of`, SPEC §6): before, at the start, part way, one short,
    /// reached and passed, and a goal inside a hundred-block.
    static let goals: [(count: TallyCount, goal: TallyCount)] = [
        (0, 10_000), (1, 10_000), (6_200, 10_000), (9_999, 10_000), (10_000, 10_000), (12_000, 10_000), (37, 100),
    ]

    /// The variant of a count toward a goal: `of-10000`.
    static func goalVariant(_ goal: TallyCount) -> Variant {
        Variant(name: "of-\(goal.value)", formats: [.svg, .png], settings: RenderSettings(goal: goal))
    }

    /// Badges (SPEC §7): every form of the strip, magnitudes whose shapes repeat, the largest
    /// count, and progress toward a goal.
    static let badges: [(count: TallyCount, goal: TallyCount?)] =
        [0, 1, 7, 25, 99, 137, 1000, 9999, 10_000, 100_000, 1_000_000, TallyCount.maximum.value].map {
            (TallyCount(exactly: $0)!, nil)
        } + [(6_200, 10_000)]

    /// The label every reference badge carries.
    static let badgeLabel = "downloads"

    /// `light`, `dark`, `of-10000-light`.
    static func badgeVariant(goal: TallyCount?, theme: Theme) -> String {
        (goal.map { "of-\($0.value)-" } ?? "") + theme.rawValue
    }

    /// Never record in a normal run, so a missing reference fails; `make snapshots` sets
    /// SNAPSHOT_TESTING_RECORD=all to record deliberately.
    static var isRecording: Bool { ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"] == "all" }

    /// Every reference image, in the order the index shows them.
    static var images: [(count: TallyCount, variant: String, path: String)] {
        var entries: [(TallyCount, String, String)] = []
        for count in TallyCount.thresholds {
            var variants = [standard]
            if variantCounts.contains(count) { variants += Self.variants }
            for variant in variants {
                let format: OutputFormat = variant.formats.contains(.png) ? .png : .svg
                entries.append(
                    (count, variant.name, "\(format.rawValue)/tally-\(count.value).\(variant.name).\(format.rawValue)"))
                if format == .png, variant.name == standard.name {
                    entries.append((count, "light (svg)", "svg/tally-\(count.value).light.svg"))
                }
            }
        }
        for (count, goal) in goals {
            let name = goalVariant(goal).name
            entries.append((count, name, "png/tally-\(count.value).\(name).png"))
            entries.append((count, name + " (svg)", "svg/tally-\(count.value).\(name).svg"))
        }
        for (count, goal) in badges {
            for theme in [Theme.light, .dark] {
                let name = badgeVariant(goal: goal, theme: theme)
                entries.append((count, "badge " + name, "png/badge-\(count.value).\(name).png"))
                entries.append((count, "badge " + name + " (svg)", "svg/badge-\(count.value).\(name).svg"))
            }
        }
        return entries
    }

    /// `Snapshots/index.html`: every reference image with its count and variant, so a reviewer
    /// sees a change by eye.
    static var indexHTML: String {
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>tally snapshots</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:24px;background:#fff;color:#222}
            h2{font-size:15px;margin:28px 0 8px}
            .row{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-end}
            figure{margin:0;padding:8px;border:1px solid #ddd;background:repeating-conic-gradient(#f4f4f4 0 25%,#fff 0 50%) 0 0/16px 16px}
            img{display:block;max-width:256px;max-height:256px}
            figcaption{font-size:12px;color:#555;margin-top:4px}
            </style></head><body>
            <h1>tally snapshots</h1>
            <p>Every reference under <code>Snapshots/</code>. <code>make snapshots</code> records them anew; review each change here.</p>

            """
        var current: TallyCount?
        for entry in images {
            if entry.count != current {
                if current != nil { html += "</div>\n" }
                html += "<h2>\(entry.count)</h2>\n<div class=\"row\">\n"
                current = entry.count
            }
            html +=
                "<figure><img src=\"\(entry.path)\" alt=\"\(entry.count) \(entry.variant)\"><figcaption>\(entry.variant) · \(entry.path)</figcaption></figure>\n"
        }
        html += "</div>\n</body></html>\n"
        return html
    }
}
