import Foundation
import TallyTestSupport
import Testing

@Suite struct DescribeTests {
    @Test func describesInWords() throws {
        let run = try TallyProcess.run(["describe", "1234"])
        #expect(run.status == 0)
        #expect(
            run.text
                == "1,234 tally marks\n1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and 4 strokes\n")
    }

    @Test func describesAsJSON() throws {
        let run = try TallyProcess.run(["describe", "10001", "--json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(object["count"] as? Int == 10001)
        #expect(object["title"] as? String == "10,001 tally marks")
        #expect(object["description"] as? String == "1 ten-thousand-block and 1 stroke")
        let frame = try #require(object["frame"] as? [String: Any])
        #expect(frame["unit"] as? Int == 100_000)
        #expect(frame["name"] as? String == "hundred-thousand-row")
        let structure = try #require(object["structure"] as? [[String: Any]])
        #expect(structure.map { $0["unit"] as? Int } == [10_000, 1])
    }

    @Test func aPinnedFrameIsTheFrameOfTheJSON() throws {
        let run = try TallyProcess.run(["describe", "137", "--json", "--frame", "block"])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let frame = try #require(object["frame"] as? [String: Any])
        #expect(frame["unit"] as? Int == 10_000 && frame["name"] as? String == "ten-thousand-block")
        expectOneLineError(
            try TallyProcess.run(["describe", "137", "--frame", "100"]), status: 64,
            mentioning: "does not fit in --frame '100'")
    }

    @Test func describesNothingAndOne() throws {
        #expect(try TallyProcess.run(["describe", "0"]).text == "No tally marks\nAn empty frame\n")
        #expect(try TallyProcess.run(["describe", "1"]).text == "1 tally mark\n1 stroke\n")
    }
}
