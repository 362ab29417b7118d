import Foundation
import TallyOptions
import TallyTestSupport
import Testing

@testable import TallyCommands

/// SPEC §8, all or nothing under SIGINT, SIGTERM and SIGHUP too: a signal during the renames
/// puts back the files already replaced. The watcher that does it ends the process, so these
/// tests read what it would act on instead: the records `TemporaryFiles` keeps of the files a
/// transaction has put in place (by reflection; they are private), at each rename of a run, in
/// this process, where `make check` runs them.
///
/// Other suites' runs share the records in this process, and each run's end clears them all:
/// a record of this suite's files may vanish early (so one seen in any check is enough), but
/// none appears that should not, nor wrong. The suite's own tests, which name the same files,
/// take turns.
@Suite(.serialized) struct SignalPathTests {
    /// A record: where the watcher would rename `backup` back over `name`, or remove `name`
    /// when there is no backup (the file was new).
    struct Record: Equatable {
        var folder: Int32
        var name: String
        var backup: String?
        var backupPath: String?
        /// Whether `folder` was open on the folder the test expects, when the record was read.
        var inFolder = false
        /// The bytes under `backup` in `folder`, when the record was read.
        var backupBytes: Data?
    }

    /// The records now, of the files named `names`. The caller holds the records' lock (a
    /// rename under way), or `locking` takes it.
    static func records(of names: Set<String>, locking: Bool) throws -> [Record] {
        let mirror = Mirror(reflecting: TemporaryFiles.shared)
        let lock = try #require(mirror.children.first { $0.label == "lock" }?.value as? Lock)
        if locking { lock.lock() }
        defer { if locking { lock.unlock() } }
        let replaced = try #require(mirror.children.first { $0.label == "replaced" }?.value)
        return Mirror(reflecting: replaced).children.compactMap { child in
            var fields: [String: Any] = [:]
            for field in Mirror(reflecting: child.value).children {
                if let label = field.label { fields[label] = field.value }
            }
            guard let folder = fields["folder"] as? Int32, let name = fields["name"] as? String,
                names.contains(name)
            else { return nil }
            return Record(
                folder: folder, name: name, backup: fields["backup"] as? String,
                backupPath: fields["backupPath"] as? String)
        }
    }

    /// The system's calls, noting the records at each rename (the transaction holds their
    /// lock then), and failing the renames of chosen numbers (from 0) with EIO.
    final class WatchingOperations: DocsFileOperations, @unchecked Sendable {
        let system = SystemFileOperations()
        let names: Set<String>
        let folder: String
        let failing: Set<Int>
        var renames = 0
        /// At each rename: its names, and the records of `names` just before it.
        var seen: [(from: String, to: String, records: [Record])] = []
        var failure: (any Error)?

        init(names: Set<String>, folder: String, failing: Set<Int> = []) {
            (self.names, self.folder, self.failing) = (names, folder, failing)
        }

        func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 { system.write(descriptor, bytes) }

        func rename(in folder: Int32, _ from: String, _ to: String) -> Int32 {
            defer { renames += 1 }
            do {
                // What a signal now would use: the folder's descriptor and the second name in it.
                let records = try SignalPathTests.records(of: names, locking: false).map { record in
                    var record = record
                    record.inFolder = SignalPathTests.isFolder(record.folder, self.folder)
                    record.backupBytes = record.backup.flatMap { SignalPathTests.bytes(of: $0, in: record.folder) }
                    return record
                }
                seen.append((from, to, records))
            } catch {
                failure = error
            }
            return failing.contains(renames) ? EIO : system.rename(in: folder, from, to)
        }
    }

    /// The images of `place()`, named as no other suite's are.
    static let names: Set<String> = ["signal-old.svg", "signal-new.svg"]

    /// A folder whose `page.md` replaces `signal-old.svg` (written by a first run) and writes
    /// `signal-new.svg`, new: renamed in that order, then `page.md`.
    static func place() throws -> DocsSafetyTests.Place {
        let place = try DocsSafetyTests.Place()
        try place.write(DocsSafetyTests.region("render 5 --theme light -o signal-old.svg"), to: "page.md")
        _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: SystemFileOperations(), say: { _ in })
        try place.write(
            DocsSafetyTests.region("render 15 --theme light -o signal-old.svg")
                + DocsSafetyTests.region("render 16 --theme light -o signal-new.svg"), to: "page.md")
        return place
    }

    /// The bytes of `name` in an open folder, or nil.
    static func bytes(of name: String, in folder: Int32) -> Data? {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        return try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd()
    }

    /// Whether `descriptor` is open on the folder at `path`.
    static func isFolder(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(descriptor, &opened) == 0 && stat(path, &named) == 0 && opened.st_dev == named.st_dev
            && opened.st_ino == named.st_ino
    }

    /// Each file put in place is recorded before the next rename: a replaced file with its
    /// second name, in its folder, still the old file; a new file with none (a signal removes
    /// it). Once the run is over nothing is recorded: a later signal undoes nothing.
    @Test func aSignalDuringTheRenamesFindsEveryFileToPutBack() throws {
        var recordedEver = false
        for _ in 0..<3 {
            let place = try Self.place()
            defer { place.remove() }
            let old = try Data(contentsOf: place.doc.appendingPathComponent("signal-old.svg"))
            let watching = WatchingOperations(names: Self.names, folder: place.doc.path)
            _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: watching, say: { _ in })
            #expect(watching.failure == nil)
            #expect(watching.seen.map(\.to) == ["signal-old.svg", "signal-new.svg", "page.md"])
            for (index, rename) in watching.seen.enumerated() {
                // Only files already put in place, in their order.
                let expected = Array(["signal-old.svg", "signal-new.svg"].prefix(index))
                let names = rename.records.map(\.name)
                #expect(names == expected.filter(names.contains), "\(rename.records)")
                if names == expected && !expected.isEmpty { recordedEver = true }
                for record in rename.records {
                    #expect(record.inFolder, "\(record)")
                    guard record.name == "signal-old.svg" else {
                        #expect(record.backup == nil && record.backupPath == nil, "\(record)")
                        continue
                    }
                    let backup = try #require(record.backup)
                    #expect(record.backupPath == place.doc.path + "/" + backup)
                    #expect(record.backupBytes == old)
                }
            }
            #expect(try Self.records(of: Self.names, locking: true).isEmpty)
        }
        #expect(recordedEver)
    }

    /// A failed rename puts back what was replaced; a file put back is no longer recorded, so a
    /// signal during the rest of the rollback never renames it again. Where a file cannot be
    /// put back, the run's end still leaves nothing recorded.
    @Test func aRollbackForgetsWhatItPutBack() throws {
        for failing: Set<Int> in [[2], [2, 3]] {
            let place = try Self.place()
            defer { place.remove() }
            let before = place.tree
            let watching = WatchingOperations(names: Self.names, folder: place.doc.path, failing: failing)
            #expect(throws: CommandFailure.self) {
                _ = try DocsRun.update(paths: [place.doc.path], check: false, operations: watching, say: { _ in })
            }
            #expect(watching.failure == nil)
            // The renames: two files, page.md (which fails), then signal-old.svg put back from
            // its second name (signal-new.svg, new, is removed without a rename).
            try #require(watching.seen.count == 4)
            let putBack = watching.seen[3]
            #expect(putBack.to == "signal-old.svg" && putBack.from.hasPrefix(".signal-old.svg.tally-"))
            #expect(!putBack.records.contains { $0.name == "signal-new.svg" }, "\(putBack.records)")
            if failing == [2] { #expect(place.tree == before) }
            #expect(try Self.records(of: Self.names, locking: true).isEmpty)
        }
    }
}
