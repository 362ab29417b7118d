extension TallyCount {
    /// The counts where the drawing changes form (SPEC §2): the edges of every unit, a collapse
    /// and its neighbours, the largest count. Tests lock each of them; `tally batch thresholds`
    /// and `tally gallery` draw them.
    public static let thresholds: [TallyCount] = [
        0, 1, 4, 5, 6, 9, 10, 24, 25, 26, 49, 50, 99, 100, 101, 125, 999, 1000, 1001,
        9999, 10000, 10001, 99999, 100_000, 1_234_567, UInt64(Int64.max),
    ].map { TallyCount(unchecked: $0) }
}
