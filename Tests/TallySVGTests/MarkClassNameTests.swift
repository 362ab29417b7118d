import TallyGeometry
import TallySVG
import Testing

/// SPEC §5: a path's class is its kind's name. The SVG writer keeps each name as a literal; every
/// kind's literal is its name, so a new kind or a renamed one cannot write another class.
@Suite struct MarkClassNameTests {
    @Test(arguments: MarkKind.allCases)
    func theClassIsTheKindsName(_ kind: MarkKind) {
        #expect("\(kind.className)" == kind.rawValue)
    }
}
