import Benchmark
import Tally

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Speed goals live here and in scripts/bench, never in timed tests.
//
//   TallyBenchmarks                   google/swift-benchmark's timings of every case (medians)
//   TallyBenchmarks measure CASE N    runs one case N times and nothing else, for callgrind:
//                                     scripts/bench counts instructions at N = 1 and N = 11 and
//                                     divides the difference by 10, so start-up cancels out
//   TallyBenchmarks list              the case names

/// One thing to measure: a name and the work, which returns bytes so nothing is optimised away.
struct Case {
    let name: String
    let work: () throws -> Int
}

let counts: [(String, UInt64)] = [
    ("9", 9), ("99", 99), ("9,999", 9_999), ("10^6", 1_000_000), ("Int64.max", UInt64(Int64.max)),
]

func render(_ count: UInt64, _ format: OutputFormat, size: Double = 256, detail: Detail.Mode? = nil) throws -> Int {
    try Renderer.render(
        TallyCount(exactly: count)!, as: format, RenderSettings(side: .longer(size), detail: detail)
    ).count
}

var cases: [Case] = []
for (name, count) in counts {
    let tally = TallyCount(exactly: count)!
    cases.append(Case(name: "scene \(name)") { TallyScene(count: tally).marks.count })
    cases.append(Case(name: "scene+svg \(name) 256px") { try render(count, .svg) })
    cases.append(Case(name: "scene+png \(name) 256px") { try render(count, .png) })
    cases.append(Case(name: "scene+pdf \(name) 256px") { try render(count, .pdf) })
    cases.append(Case(name: "json \(name) full") { try Renderer.render(tally, as: .json, RenderSettings()).count })
}
for size in [64.0, 1_024] {  // 256 px is in the loop above
    cases.append(Case(name: "scene+svg 9,999 \(Int(size))px") { try render(9_999, .svg, size: size) })
    cases.append(Case(name: "scene+png 9,999 \(Int(size))px") { try render(9_999, .png, size: size) })
}
cases.append(Case(name: "scene+svg Int64.max full") { try render(UInt64(Int64.max), .svg, detail: .full) })
cases.append(
    Case(name: "batch-like: svg 0...999 256px") {
        var bytes = 0
        for count in UInt64(0)..<1_000 { bytes += try render(count, .svg) }
        return bytes
    })

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "list" {
    for item in cases { print(item.name) }
} else if arguments.first == "measure", arguments.count == 3, let times = Int(arguments.last!) {
    let name = arguments[arguments.startIndex + 1]
    guard let item = cases.first(where: { $0.name == name }) else {
        print("no case named '\(name)'; TallyBenchmarks list shows them")
        exit(64)
    }
    var total = 0
    for _ in 0..<times { total &+= try item.work() }
    print(total)
} else {
    for item in cases {
        benchmark(item.name) { keep(try item.work()) }
    }
    Benchmark.main()
}

/// Keeps a result alive so the optimiser cannot drop the work that made it.
@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }
