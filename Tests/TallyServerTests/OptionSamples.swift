#if Server
import TallyOptions

/// Requests that differ in one option, by construction: for each option, every pair of its
/// values, none given and each of its declared samples (`RenderOption.samples`), where the
/// option shows in the image. The cache key's and the ETags' tests vary every option through
/// them, so an option added (with its samples) cannot leave another unvaried, as a seeded draw
/// from a pool could.
enum OptionSamples {
    /// `tally render` and `/{count}`, or `tally badge` and `/badge/{count}` (SPEC §7).
    enum Route: String, CaseIterable, Hashable, CustomStringConvertible {
        case render, badge
        var description: String { rawValue }
        /// The options the route takes.
        var options: [RenderOption] { self == .render ? RenderOption.all : RenderOption.badgeOptions }
    }

    /// A count and options under which an option's samples change the image.
    struct Context {
        var count: UInt64
        var given: [RenderOption: String] = [:]
    }

    /// Where the option shows. Most show in 1,234 (a row, a hundred-block's box and cross, and
    /// the lens's gates and strokes: every unit a drawing parameter can move, so a new one needs
    /// no entry here) and in a badge of 6,200 (a gate and its slash) on their own; the rest need
    /// a setting or a count beside them.
    static func context(_ option: RenderOption, on route: Route) -> Context {
        switch (route, option) {
        // A seed moves only the ink style's wobble.
        case (.render, .seed): Context(count: 137, given: [.style: "ink"])
        // The lens shows only in a picture of rows too small for its gates (SPEC §2): 863 at 256 px.
        case (.render, .inset): Context(count: 863)
        // Detail left out shows only where the marks are small: 12,345 at 256 px.
        case (.render, .detail): Context(count: 12_345)
        // A frame holds its count: 137 fits in every sample's (1,000 is one).
        case (.render, .frame): Context(count: 137)
        case (.render, _): Context(count: 1_234)
        case (.badge, _): Context(count: 6200)
        }
    }

    /// One pair: the option varied and the two sets of options, in its context's count.
    struct Pair {
        let option: RenderOption
        let count: UInt64
        let first: [RenderOption: String]
        let second: [RenderOption: String]
        /// Whether both give a sample (neither leaves the option out).
        var bothGiven: Bool { first[option] != nil && second[option] != nil }
    }

    /// Every pair of values of every option the route takes, in `RenderOption.allCases`' order.
    static func pairs(on route: Route) -> [Pair] {
        var pairs: [Pair] = []
        for option in route.options {
            let context = context(option, on: route)
            let values: [String?] = [nil] + option.samples
            for (index, first) in values.enumerated() {
                for second in values[(index + 1)...] {
                    var (a, b) = (context.given, context.given)
                    (a[option], b[option]) = (first, second)
                    pairs.append(Pair(option: option, count: context.count, first: a, second: b))
                }
            }
        }
        return pairs
    }
}
#endif
