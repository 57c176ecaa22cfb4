import Foundation
@testable import NeonServer
import Testing

@Suite("HeapTrimmer: freed heap back to the system, at most once an interval")
struct HeapTrimmerTests {
    @Test("the first call trims, calls within the interval do not, the first one past it does")
    func rateLimited() {
        let trimmer = HeapTrimmer(every: .seconds(30))
        let start = ContinuousClock.now
        #expect(trimmer.trimIfDue(now: start))
        #expect(!trimmer.trimIfDue(now: start + .seconds(29)))
        #expect(trimmer.trimIfDue(now: start + .seconds(30)))
        #expect(!trimmer.trimIfDue(now: start + .seconds(31)))
    }

    @Test("a trim after freeing 64 MiB in small blocks gives pages back: RSS falls")
    func givesPagesBack() throws {
        func rss() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        // 64 MiB in 1 KiB blocks, all touched, then every block but the
        // last freed: the heap's top stays in use, so glibc cannot shrink
        // it from the top, and only a trim returns the pages below.
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0 ..< 65_536 {
            let block = malloc(1024)!
            memset(block, 1, 1024)
            blocks.append(block)
        }
        let last = blocks.removeLast()
        for block in blocks { free(block) }
        blocks.removeAll()
        let before = try rss()
        #expect(HeapTrimmer(every: .seconds(30)).trimIfDue())
        let after = try rss()
        free(last)
        #expect(before - after > 32 * 1024, "RSS \(before) kB before the trim, \(after) kB after")
    }
}
