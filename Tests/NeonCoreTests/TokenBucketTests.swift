import Testing
@testable import NeonCore

@Suite("Token bucket")
struct TokenBucketTests {
    @Test("a full bucket allows a burst, then the rate; time refills it up to the burst, never backwards")
    func bucket() {
        var bucket = TokenBucket(rate: 10, burst: 5)
        let steps: [(Duration, Bool)] = [
            (.zero, true), (.zero, true), (.zero, true), (.zero, true), (.zero, true),
            (.zero, false),
            (.milliseconds(50), false),   // half a token
            (.milliseconds(100), true),
            (.milliseconds(100), false),
            (.seconds(60), true), (.seconds(60), true), (.seconds(60), true), (.seconds(60), true), (.seconds(60), true),
            (.seconds(60), false),        // refilled to the burst, no more
            (.seconds(30), false),        // an earlier time adds nothing
        ]
        var results: [Bool] = []
        for (time, _) in steps { results.append(bucket.take(at: time)) }
        #expect(results == steps.map(\.1))
    }
}
