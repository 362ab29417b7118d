import SnapshotTesting
import Tally
import TallySnapshotTesting
import Testing

/// An app that shows a reading streak as a tally locks the images it ships. The references
/// live in `__Snapshots__/` beside this file; a change to tally that alters them fails here.
@Suite struct StreakBadgeTests {
    /// The streak badge: 64 px, dark, on paper.
    static let badge = RenderSettings(side: .longer(64), appearance: Appearance(theme: .dark, background: .paper))

    // Record with SNAPSHOT_TESTING_RECORD=all swift test; run in CI with
    // SNAPSHOT_TESTING_RECORD=never so a missing reference fails instead of being written.

    @Test func aWeekLongStreak() {
        assertSnapshot(of: 7 as TallyCount, as: .svg(Self.badge), named: "badge")
        assertSnapshot(of: 7 as TallyCount, as: .png(Self.badge), named: "badge")
    }

    @Test func theHundredDayMilestone() {
        // The geometry itself: one box and one cross once a hundred is complete.
        assertSnapshot(of: TallyScene(count: 100), as: .scene, named: "scene")
        assertSnapshot(
            of: 100 as TallyCount, as: .png(RenderSettings(side: .longer(128)), tolerance: .standard), named: "large")
    }
}
