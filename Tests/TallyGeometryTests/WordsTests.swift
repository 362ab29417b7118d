import PropertyBased
import Testing

@testable import TallyGeometry

@Suite struct WordsTests {
    @Test func titles() {
        #expect(Words.title(for: tallyCount(0)) == "No tally marks")
        #expect(Words.title(for: tallyCount(1)) == "1 tally mark")
        #expect(Words.title(for: tallyCount(2)) == "2 tally marks")
        #expect(Words.title(for: tallyCount(1234)) == "1,234 tally marks")
        #expect(Words.title(for: .maximum) == "9,223,372,036,854,775,807 tally marks")
    }

    @Test func descriptions() {
        #expect(
            Words.description(for: tallyCount(1234))
                == "1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and 4 strokes")
        #expect(Words.description(for: tallyCount(0)) == "An empty frame")
        #expect(Words.description(for: tallyCount(1)) == "1 stroke")
        #expect(Words.description(for: tallyCount(5)) == "1 gate")
        #expect(Words.description(for: tallyCount(30)) == "1 twenty-five-unit and 1 gate")
        #expect(Words.description(for: tallyCount(10_000)) == "1 ten-thousand-block")
        #expect(Words.description(for: tallyCount(2_300_000)) == "2 million-blocks and 3 hundred-thousand-rows")
        // Plurals of every unit name, written out (not derived from the code under test).
        #expect(Words.description(for: tallyCount(2_000)) == "2 thousand-rows")
        #expect(Words.description(for: tallyCount(2_222)) == "2 thousand-rows, 2 hundred-blocks, 4 gates and 2 strokes")
        #expect(Words.description(for: tallyCount(20_050)) == "2 ten-thousand-blocks and 2 twenty-five-units")
        #expect(Words.description(for: tallyCount(200_000)) == "2 hundred-thousand-rows")
    }

    @Test func theStructureAddsUpToTheCount() async {
        await propertyCheck(count: 1000, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max)) {
            digits, raw in
            let n = countWithDigits(digits, raw)
            let parts = Words.structure(of: tallyCount(n))
            #expect(parts.reduce(UInt64(0)) { $0 + UInt64($1.count) * $1.level.capacity } == n)
            // Largest first, each level once, never a full parent's worth.
            #expect(parts.map(\.level) == parts.map(\.level).sorted(by: >))
            for part in parts {
                let parent = UnitLevel.all.first { $0.rank == part.level.rank + 1 }
                #expect(
                    part.count >= 1 && part.count < (parent?.childCount ?? 10) || part.level.rank == 1 && part.count < 5
                )
            }
        }
    }

    @Test func grouping() {
        #expect(Words.grouped(0) == "0")
        #expect(Words.grouped(999) == "999")
        #expect(Words.grouped(1000) == "1,000")
        #expect(Words.grouped(1_234_567) == "1,234,567")
    }

    @Test func unitNames() {
        let names = UnitLevel.all.map(\.name)
        #expect(
            names.prefix(8) == [
                "stroke", "gate", "twenty-five-unit", "hundred-block", "thousand-row",
                "ten-thousand-block", "hundred-thousand-row", "million-block",
            ])
        #expect(names.last == "ten-quintillion-row")
        #expect(Set(names).count == names.count)
    }

    @Test func parsing() throws {
        #expect(try TallyCount(parsing: "0") == .zero)
        #expect(try TallyCount(parsing: "9223372036854775807") == .maximum)
        #expect(throws: TallyCount.ParseError.tooLarge) { try TallyCount(parsing: "9223372036854775808") }
        #expect(throws: TallyCount.ParseError.tooLarge) { try TallyCount(parsing: "99999999999999999999999") }
        #expect(throws: TallyCount.ParseError.negative) { try TallyCount(parsing: "-1") }
        #expect(throws: TallyCount.ParseError.notANumber) { try TallyCount(parsing: "1.5") }
        #expect(throws: TallyCount.ParseError.notANumber) { try TallyCount(parsing: "1e3") }
        #expect(throws: TallyCount.ParseError.empty) { try TallyCount(parsing: "") }
        // Arabic-Indic digits are not read.
        #expect(throws: TallyCount.ParseError.notANumber) { try TallyCount(parsing: "١٢") }
        #expect(TallyCount(Int64(-1)) == nil)
    }
}
