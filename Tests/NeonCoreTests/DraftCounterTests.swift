import Testing
@testable import NeonCore

@Suite("Draft counter")
struct DraftCounterTests {
    let counter = try! DraftCounter()

    @Test("levels at every boundary of the 280 limit", arguments: [
        (0, LimitLevel.ok), (259, .ok), (260, .warning), (279, .warning),
        (280, .limit), (289, .limit), (290, .over), (1000, .over),
    ])
    func boundaries280(count: Int, level: LimitLevel) {
        #expect(counter.level(forCount: count) == level)
    }

    @Test("remaining, ring fraction and visibility follow the seed at 280")
    func ring() {
        let s259 = counter.status(forCount: 259)
        #expect(s259.remaining == 21 && !s259.showsRemaining && s259.ringVisible)
        let s260 = counter.status(forCount: 260)
        #expect(s260.remaining == 20 && s260.showsRemaining)
        #expect(abs(s260.ringFraction - 260.0 / 280.0) < 1e-12)
        let s280 = counter.status(forCount: 280)
        #expect(s280.ringFraction == 1 && s280.remaining == 0 && s280.ringVisible)
        let s289 = counter.status(forCount: 289)
        #expect(s289.remaining == -9 && s289.ringVisible && s289.ringFraction == 1)
        let s290 = counter.status(forCount: 290)
        #expect(s290.remaining == -10 && !s290.ringVisible && s290.showsRemaining)
    }

    @Test("another limit moves every boundary with it", arguments: [
        (79, LimitLevel.ok), (80, .warning), (99, .warning), (100, .limit), (109, .limit), (110, .over),
    ])
    func boundaries100(count: Int, level: LimitLevel) throws {
        #expect(try DraftCounter(limit: 100).level(forCount: count) == level)
    }

    @Test("a limit below 20 starts at the warning level")
    func smallLimit() throws {
        let c = try DraftCounter(limit: 5)
        #expect(c.level(forCount: 0) == .warning)
        #expect(c.level(forCount: 5) == .limit)
        #expect(c.level(forCount: 15) == .over)
    }

    @Test("a limit below 1 is refused with a sentence")
    func badLimit() {
        #expect(throws: DraftLimitError(limit: 0)) { try DraftCounter(limit: 0) }
        #expect(DraftLimitError(limit: -3).description.contains("-3"))
    }

    @Test("counts user-perceived characters: CJK, emoji, ZWJ families and combining marks")
    func graphemes() {
        #expect(counter.count("漢字かな") == 4)
        #expect(counter.count("👨‍👩‍👧‍👦") == 1)
        #expect(counter.count("🇫🇷🇯🇵") == 2)
        #expect(counter.count("e\u{301}") == 1)
        #expect(counter.count("👍🏽ok") == 3)
        #expect(counter.count("") == 0)
    }

    @Test("crossings are reported both ways, and only when the level changes")
    func crossings() {
        let up = counter.crossing(fromCount: 259, toCount: 260)
        #expect(up?.from == .ok && up?.to == .warning && up?.status.remaining == 20)
        #expect(counter.crossing(fromCount: 260, toCount: 279) == nil)
        #expect(counter.crossing(fromCount: 279, toCount: 280)?.to == .limit)
        #expect(counter.crossing(fromCount: 289, toCount: 290)?.to == .over)
        let down = counter.crossing(fromCount: 300, toCount: 10)
        #expect(down?.from == .over && down?.to == .ok)
        #expect(counter.crossing(fromCount: 280, toCount: 279)?.to == .warning)
        let emoji = String(repeating: "👨‍👩‍👧", count: 259)
        #expect(counter.crossing(from: emoji, to: emoji + "🇫🇷")?.to == .warning)
    }
}
