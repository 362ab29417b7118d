import Foundation
import TallyGeometry

/// The counts `tally batch` draws: `42`, ranges `0...100`, comma lists `1,5,25`, the word
/// `thresholds`, `@file` (one count or range a line; blank lines and `#` comments allowed) and
/// `-` for the same read from standard input. Ranges stay ranges: nothing is expanded, so a
/// huge range costs no memory and is refused by its size alone.
struct CountList: Sendable {
    /// The most files one batch writes.
    static let maximumTotal: UInt64 = 1_000_000
    /// The largest `@file` or standard input read.
    static let maximumListBytes = 16 * 1024 * 1024

    private(set) var ranges: [ClosedRange<UInt64>] = []
    /// How many counts come before each range: index → count without expanding anything.
    private var starts: [UInt64] = []
    private(set) var total: UInt64 = 0

    subscript(index: UInt64) -> TallyCount {
        // The last range starting at or before the index.
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return TallyCount(exactly: ranges[low].lowerBound + (index - starts[low]))!
    }

    private mutating func append(_ range: ClosedRange<UInt64>, source: String) throws(CommandFailure) {
        let size = range.upperBound - range.lowerBound + 1
        guard total <= Self.maximumTotal, size <= Self.maximumTotal - total else {
            throw .usage("\(source) makes the batch more than \(Words.grouped(Self.maximumTotal)) files; split it into smaller batches")
        }
        starts.append(total)
        ranges.append(range)
        total += size
    }

    /// Reads every argument; fails on the first bad one, naming it, before anything is drawn.
    static func parse(_ arguments: [String], readStandardInput: () throws(CommandFailure) -> String,
                      readFile: (String) throws(CommandFailure) -> String) throws(CommandFailure) -> CountList {
        var list = CountList()
        var readStdin = false
        for argument in arguments {
            if argument == "-" {
                guard !readStdin else { throw .usage("'-' is given twice; standard input can be read once") }
                readStdin = true
                try list.appendLines(try readStandardInput(), source: "standard input")
            } else if argument.hasPrefix("@") {
                let path = String(argument.dropFirst())
                try list.appendLines(try readFile(path), source: "'\(Values.printable(path))'")
            } else {
                for token in argument.split(separator: ",", omittingEmptySubsequences: false) {
                    try list.appendToken(String(token), source: "count")
                }
            }
        }
        guard list.total > 0 else { throw .usage("no counts given; give numbers, ranges like 0...100, thresholds, @file or -") }
        return list
    }

    private mutating func appendLines(_ text: String, source: String) throws(CommandFailure) {
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let token = content.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if token.isEmpty { continue }
            try appendToken(token, source: "\(source) line \(number + 1):")
        }
    }

    private mutating func appendToken(_ token: String, source: String) throws(CommandFailure) {
        let what = source == "count" ? "count" : "\(source) count"
        let rangeWhat = (source == "count" ? "" : source + " ") + "range '\(Values.printable(token))': count"
        if token == "thresholds" {
            for count in TallyCount.thresholds { try append(count.value...count.value, source: "thresholds") }
            return
        }
        if let dots = token.range(of: "...") {
            let low = try Values.count(String(token[..<dots.lowerBound]), what: rangeWhat)
            let high = try Values.count(String(token[dots.upperBound...]), what: rangeWhat)
            guard low <= high else {
                throw .usage("\(source == "count" ? "" : source + " ")range '\(Values.printable(token))' runs backwards; write the smaller count first")
            }
            try append(low.value...high.value, source: "range '\(token)'")
            return
        }
        if token.isEmpty { throw .usage("an empty item in a count list; separate counts with single commas") }
        let count = try Values.count(token, what: what)
        try append(count.value...count.value, source: "count '\(token)'")
    }
}
