import NeonTestSupport
import Testing
@testable import NeonCore

@Suite("Reading position properties")
struct ReadingPositionPropertyTests {
    @Test("for 100,000 random layouts progress stays in 0…1, percent is its floor, atBottom matches")
    func randomPositions() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<100_000 {
            let content = Int.random(in: 0...(Bool.random(using: &rng) ? 200 : 5_000_000), using: &rng)
            let viewport = Int.random(in: 0...300, using: &rng)
            let top = Int.random(in: 0...content, using: &rng)
            let p = try ReadingPosition(top: top, viewport: viewport, content: content)
            #expect(p.progress >= 0 && p.progress <= 1)
            #expect(p.percent >= 0 && p.percent <= 100)
            #expect(p.percent == Int((p.progress * 100).rounded(.down)) || abs(p.progress * 100 - Double(p.percent)) < 1e-9)
            #expect(p.atBottom == (top >= content - viewport))
            #expect((p.percent == 100) == p.atBottom)
        }
    }
}
