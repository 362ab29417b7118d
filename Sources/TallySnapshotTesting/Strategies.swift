import Foundation
@preconcurrency import SnapshotTesting
import TallyEncoding
import TallyGeometry
import TallyRender
import Testing
import XCTest

#if Cairo
import TallyCairo
#endif

// Snapshot strategies for tally images, for swift-snapshot-testing:
//
//     assertSnapshot(of: TallyScene(count: 137), as: .scene)
//     assertSnapshot(of: 137 as TallyCount, as: .svg())
//     assertSnapshot(of: 137 as TallyCount, as: .png(RenderSettings(side: .longer(128))))
//
// Each is a swift-snapshot-testing strategy pulled back from the renderer, so it compares what
// `tally render` writes: text line by line, images pixel by pixel within a tolerance.

extension Snapshotting where Value == TallyScene, Format == String {
    /// The JSON scene (SPEC §5), compared line by line (one mark a line).
    public static var scene: Snapshotting {
        Snapshotting<String, String>(pathExtension: "json", diffing: .lines).pullback { SceneJSON.encode($0) }
    }
}

extension Snapshotting where Value == TallyCount, Format == String {
    /// The JSON scene of a count with every mark (`tally render N -f json`).
    public static var scene: Snapshotting {
        Snapshotting<TallyScene, String>.scene.pullback { TallyScene(count: $0) }
    }

    /// The SVG `tally render` writes with these settings, compared line by line.
    public static func svg(_ settings: RenderSettings = RenderSettings()) -> Snapshotting {
        Snapshotting<String, String>(pathExtension: "svg", diffing: .lines).pullback { count in
            renderedText(count, .svg, settings)
        }
    }
}

#if Cairo
extension Snapshotting where Value == Data, Format == Data {
    /// The base strategy every PNG strategy is pulled back from: PNG bytes compared pixel by
    /// pixel within a tolerance (`Diffing.pixels`).
    ///
    /// - Parameters:
    ///   - tolerance: how far an image may stray from its reference.
    ///   - failures: where a failed comparison writes `reference.png`, `actual.png` and
    ///     `difference.png`; by default a folder under `SNAPSHOT_ARTIFACTS` (else the temporary
    ///     folder) named after the image. The failure message names the folder.
    public static func png(tolerance: PixelTolerance = .standard, failures: URL? = nil) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .pixels(tolerance: tolerance, failures: failures))
    }

    /// PDF bytes, compared exactly (tally's PDFs are deterministic: fixed dates, no fonts).
    public static var pdf: Snapshotting {
        Snapshotting(
            pathExtension: "pdf",
            diffing: .diff(toData: { $0 }, fromData: { $0 }) { reference, actual in
                reference == actual
                    ? nil : ("the PDF changed: \(reference.count) bytes before, \(actual.count) now", [])
            })
    }
}

extension Snapshotting where Value == TallyCount, Format == Data {
    /// The PNG `tally render` writes with these settings, compared pixel by pixel.
    public static func png(
        _ settings: RenderSettings = RenderSettings(), tolerance: PixelTolerance = .standard,
        failures: URL? = nil
    ) -> Snapshotting {
        Snapshotting<Data, Data>.png(tolerance: tolerance, failures: failures).pullback {
            renderedBytes($0, .png, settings)
        }
    }

    /// The PDF `tally render` writes with these settings, compared byte for byte.
    public static func pdf(_ settings: RenderSettings = RenderSettings()) -> Snapshotting {
        Snapshotting<Data, Data>.pdf.pullback { renderedBytes($0, .pdf, settings) }
    }
}

extension Snapshotting where Value == TallyScene, Format == Data {
    /// A scene of your own (built, transformed, read from JSON, ink-styled) drawn as a PNG at the
    /// settings' size, with the marks it has: no level of detail is applied again.
    public static func png(
        _ settings: RenderSettings = RenderSettings(), tolerance: PixelTolerance = .standard,
        failures: URL? = nil
    ) -> Snapshotting {
        Snapshotting<Data, Data>.png(tolerance: tolerance, failures: failures).pullback { scene in
            reportingFailure("a scene of \(scene.count.value) as png") { () throws(RenderError) in
                try Renderer.render(scene: scene, as: .png, settings)
            }
        }
    }
}
#endif

extension Snapshotting where Value == TallyScene, Format == String {
    /// A scene of your own as SVG, drawn with the marks it has, compared line by line.
    public static func svg(_ settings: RenderSettings = RenderSettings()) -> Snapshotting {
        Snapshotting<String, String>(pathExtension: "svg", diffing: .lines).pullback { scene in
            String(
                decoding: reportingFailure("a scene of \(scene.count.value) as svg") { () throws(RenderError) in
                    try Renderer.render(scene: scene, as: .svg, settings)
                }, as: UTF8.self)
        }
    }
}

/// How far a PNG may stray from its reference: a pixel differs when any channel (0–255) moves
/// by more than `channel`, and at most `share` of the pixels may differ. The standard tolerance
/// (8 and 0.05%) absorbs anti-aliasing noise between Cairo versions; one missing stroke at
/// 256 px is about 100 pixels (0.15%) and fails.
public struct PixelTolerance: Hashable, Sendable {
    /// How far one channel (0–255) may move before a pixel counts as different.
    public var channel: Int
    /// The share of pixels that may differ (0.0005 is 0.05%).
    public var share: Double

    /// A tolerance of your own.
    public init(channel: Int, share: Double) {
        self.channel = channel
        self.share = share
    }

    /// 8 of 255 and 0.05%: anti-aliasing noise between Cairo versions passes, one missing stroke fails.
    public static let standard = PixelTolerance(channel: 8, share: 0.0005)
    /// Byte-identical pixels.
    public static let exact = PixelTolerance(channel: 0, share: 0)
}

#if Cairo
extension Diffing where Value == Data {
    /// PNGs compared pixel by pixel. On failure the reference, the actual image and a picture of
    /// the difference (differing pixels in red over the faded reference) go into one folder.
    public static func pixels(tolerance: PixelTolerance, failures: URL? = nil) -> Diffing {
        .diff(
            toData: { $0 }, fromData: { $0 },
            diffV2: { reference, actual in
                guard reference != actual else { return nil }
                let referenceImage = PNGImage(png: Array(reference))
                let actualImage = PNGImage(png: Array(actual))
                var message: String
                var difference: PNGImage.Difference?
                if let referenceImage, let actualImage {
                    difference = actualImage.difference(from: referenceImage, channelThreshold: tolerance.channel)
                    if let difference {
                        if difference.differingShare <= tolerance.share { return nil }
                        message =
                            "\(difference.differingPixels) of \(difference.pixelCount) pixels differ by more than \(tolerance.channel) "
                            + "(\(DecimalText.fixed(100 * difference.differingShare, digits: 3))%, allowed \(DecimalText.fixed(100 * tolerance.share, digits: 3))%)"
                    } else {
                        message =
                            "the size changed from \(referenceImage.width)×\(referenceImage.height) to \(actualImage.width)×\(actualImage.height)"
                    }
                } else {
                    message =
                        actualImage == nil ? "the image could not be rendered or read" : "the reference is not a PNG"
                }
                var images: [(String, Data)] = [("reference.png", reference), ("actual.png", actual)]
                if let referenceImage, let actualImage, difference != nil,
                    let picture = referenceImage.differenceImage(
                        against: actualImage, channelThreshold: tolerance.channel),
                    let bytes = try? picture.pngData()
                {
                    images.append(("difference.png", Data(bytes)))
                }
                let folder = failures ?? defaultFailureFolder(for: actual)
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    for (name, data) in images { try data.write(to: folder.appendingPathComponent(name)) }
                    message += "; reference, actual and difference images in \(folder.path)"
                } catch {
                    message += "; the failure images could not be written to \(folder.path): \(error)"
                }
                return (message, images.map { DiffAttachment.data($0.1, name: $0.0) })
            })
    }

    private static func defaultFailureFolder(for actual: Data) -> URL {
        let base =
            ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
        // The content names the folder, so two failures never overwrite each other.
        var hash = FNV1a()
        hash.add(actual)
        return base.appendingPathComponent("tally-snapshot-failures").appendingPathComponent(
            String(hash.value, radix: 16))
    }
}

#endif

/// A render that fails is a test failure, reported where the snapshot is asserted, never a
/// reference: what is returned then (the error in words) is no image and matches none.
private func renderedText(_ count: TallyCount, _ format: OutputFormat, _ settings: RenderSettings) -> String {
    String(decoding: renderedBytes(count, format, settings), as: UTF8.self)
}

private func renderedBytes(_ count: TallyCount, _ format: OutputFormat, _ settings: RenderSettings) -> Data {
    reportingFailure("\(count.value) as \(format.rawValue)") { () throws(RenderError) in
        try Renderer.render(count, as: format, settings)
    }
}

private func reportingFailure(_ what: String, _ render: () throws(RenderError) -> [UInt8]) -> Data {
    do {
        return Data(try render())
    } catch {
        let message = "tally could not render \(what): \(error)"
        // Where the assertion runs: a Swift Testing test, else XCTest.
        if Test.current != nil { Issue.record(Comment(rawValue: message)) } else { XCTFail(message) }
        return Data((message + "\n").utf8)
    }
}
