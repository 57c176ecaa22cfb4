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
}
