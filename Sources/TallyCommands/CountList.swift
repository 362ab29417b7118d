import TallyGeometry
import TallyOptions

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
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return TallyCount(exactly: ranges[low].lowerBound + (index - starts[low]))!
    }

    /// - Parameter source: what the message names if the range is one too many; built only then
    ///   (a list of a million lines appends a million times).
    private mutating func append(_ range: ClosedRange<UInt64>, source: @autoclosure () -> String)
        throws(CommandFailure)
    {
        let size = range.upperBound - range.lowerBound + 1
        guard total <= Self.maximumTotal, size <= Self.maximumTotal - total else {
            throw .usage(
                "\(source()) makes the batch more than \(Words.grouped(Self.maximumTotal)) files; split it into smaller batches"
            )
        }
        // A count or range right after the last one extends it: a list of a million consecutive
        // lines is one range.
        if let last = ranges.last, last.upperBound < UInt64.max, range.lowerBound == last.upperBound + 1 {
            ranges[ranges.count - 1] = last.lowerBound...range.upperBound
        } else {
            starts.append(total)
            ranges.append(range)
        }
        total += size
    }

    /// The same counts, each once, in the order they first appear. Ranges that do not overlap
    /// (the usual list) are kept as they are; otherwise the list is expanded once (it holds at
    /// most `maximumTotal` counts) and rebuilt.
    func removingDuplicates() -> CountList {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        guard zip(sorted, sorted.dropFirst()).contains(where: { $1.lowerBound <= $0.upperBound }) else { return self }
        var seen = Set<UInt64>()
        seen.reserveCapacity(Int(total))
        var unique = CountList()
        for range in ranges {
            for value in range where seen.insert(value).inserted {
                try? unique.append(value...value, source: "")  // never more than this list held
            }
        }
        return unique
    }

    /// Reads every argument; fails on the first bad one, naming it, before anything is drawn.
    static func parse(
        _ arguments: [String], readStandardInput: () throws(CommandFailure) -> [UInt8],
        readFile: (String) throws(CommandFailure) -> [UInt8]
    ) throws(CommandFailure) -> CountList {
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
                    try list.appendToken(String(token), line: nil)
                }
            }
        }
        guard list.total > 0 else {
            throw .usage("no counts given; give numbers, ranges like 0...100, thresholds, @file or -")
        }
        return list
    }

    /// One count or range a line, in one pass over the bytes: `#` starts a comment, spaces,
    /// tabs and carriage returns around a token are ignored, blank lines skipped; `\n`, `\r\n`
    /// and a lone `\r` end a line; a UTF-8 byte order mark at the start (as some Windows editors
    /// write) is skipped. No line is copied but the tokens themselves, and a line's name for a
    /// message ("standard input line 7:") is made only for a message.
    mutating func appendLines(_ bytes: [UInt8], source: String) throws(CommandFailure) {
        var line = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let count = bytes.count
        while index <= count {
            // One line: from `index` to the next line end.
            let start = index
            while index < count && bytes[index] != 0x0A && bytes[index] != 0x0D { index += 1 }
            // An empty line, the most common blank, is passed over without a look inside.
            if index > start {
                var end = index
                if let hash = bytes[start..<end].firstIndex(of: 0x23) { end = hash }
                var first = start
                while first < end && Self.isBlank(bytes[first]) { first += 1 }
                while end > first && Self.isBlank(bytes[end - 1]) { end -= 1 }
                if first < end {
                    try appendToken(String(decoding: bytes[first..<end], as: UTF8.self), line: (source, line))
                }
            }
            if index < count && bytes[index] == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A { index += 1 }
            index += 1
            line += 1
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C }

    /// The byte offset of the first `...` in a token (a byte scan: this runs once a line).
    private static func ellipsis(in token: String) -> Int? {
        var dots = 0
        for (offset, byte) in token.utf8.enumerated() {
            dots = byte == 0x2E ? dots + 1 : 0
            if dots == 3 { return offset - 2 }
        }
        return nil
    }

    /// One item: of the command line (`line` nil), or of a list's line (its source and number).
    private mutating func appendToken(_ token: String, line: (source: String, number: Int)?) throws(CommandFailure) {
        // A plain count, the common case of a long list, without building any message.
        if let count = try? TallyCount(parsing: token) {
            try append(count.value...count.value, source: "count '\(Values.printable(token))'")
            return
        }
        // "standard input line 7: " before a list's item; nothing before the command line's.
        let place = line.map { "\($0.source) line \($0.number): " } ?? ""
        let what = place + "count"
        let rangeWhat = place + "range '\(Values.printable(token))': count"
        if token == "thresholds" {
            for count in TallyCount.thresholds { try append(count.value...count.value, source: "thresholds") }
            return
        }
        if let dots = Self.ellipsis(in: token) {
            let utf8 = Array(token.utf8)
            let low = try Values.count(String(decoding: utf8[..<dots], as: UTF8.self), what: rangeWhat)
            let high = try Values.count(String(decoding: utf8[(dots + 3)...], as: UTF8.self), what: rangeWhat)
            guard low <= high else {
                throw .usage(
                    "\(place)range '\(Values.printable(token))' runs backwards; write the smaller count first"
                )
            }
            try append(low.value...high.value, source: "range '\(Values.printable(token))'")
            return
        }
        if token.isEmpty { throw .usage("an empty item in a count list; separate counts with single commas") }
        let count = try Values.count(token, what: what)
        try append(count.value...count.value, source: "count '\(token)'")
    }
}

/// The count-list parser for the fuzz targets (`make fuzz`), not an API: parses a list's bytes
/// as `@file` would and returns the number of counts, or nil for a list tally refuses.
@_spi(Fuzzing) public func fuzzCountList(_ bytes: [UInt8]) -> UInt64? {
    var list = CountList()
    do {
        try list.appendLines(bytes, source: "fuzz")
        return list.removingDuplicates().total
    } catch {
        return nil
    }
}
