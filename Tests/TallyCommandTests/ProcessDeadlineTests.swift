import Foundation
import TallyTestSupport
import Testing

/// The deadline every process test runs under (`runProgram`): a child that outlives it fails its
/// test, is killed and reaped, never left running, and the failure says where each of its
/// threads waited, so a hang that comes once in hundreds of runs is explained the first time.
@Suite struct ProcessDeadlineTests {
    @Test(.timeLimit(.minutes(1))) func aHungChildFailsItsTestSaysWhereItWaitedAndIsReaped() throws {
        try startingAProcess()
        let started = Date()
        final class Named: @unchecked Sendable { var pid: Int32 = 0 }
        let named = Named()
        try withKnownIssue {
            let run = try runProgram(URL(fileURLWithPath: "/bin/sleep"), ["30"], timeout: 1)
            // SIGTERM ends it, or SIGKILL two seconds later where the test runner left SIGTERM
            // blocked for its children: long before its 30 s either way.
            #expect(run.status == SIGTERM || run.status == SIGKILL)
        } matching: { issue in
            // "sleep 30 ran past 1 s and was killed; its threads: 1234 sleep [sleep S hrtimer_nanosleep]"
            let text = String(describing: issue)
            if let range = text.range(of: #"its threads: (\d+) sleep \[sleep S "#, options: .regularExpression) {
                named.pid = Int32(text[range].split(separator: " ")[2]) ?? 0
            }
            return text.contains("ran past 1 s and was killed")
        }
        #expect(named.pid > 0, "the failure names the sleeping thread")
        #expect(kill(named.pid, 0) == -1 && errno == ESRCH, "the child is reaped")
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
