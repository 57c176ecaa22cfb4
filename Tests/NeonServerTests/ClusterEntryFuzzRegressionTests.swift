@testable import NeonServer
import Testing

/// Inputs scripts/fuzz.sh (target `entries`) found, replayed through the
/// same path: a published payload read as ClusterReader reads it, then
/// stored again as a stream entry.
@Suite("Log entries the fuzzer found")
struct ClusterEntryFuzzRegressionTests {
    @Test("a published entry with an index below 1 is not an entry: logs count from 1")
    func indexBelowOne() {
        for index in ["-1", "0", "-9223372036854775808"] {
            let payload = Array("\(index)\u{1F}m\u{1F}c1\u{1F}3\u{1F}0\u{1F}{\"type\":\"hello\"}".utf8)
            #expect(ClusterEntry(published: payload) == nil, "index \(index)")
        }
        let first = Array("1\u{1F}m\u{1F}c1\u{1F}3\u{1F}0\u{1F}{\"type\":\"hello\"}".utf8)
        let entry = ClusterEntry(published: first)
        #expect(entry?.index == 1)
        let stored = entry.map { RedisReply.array([.string(Array("\($0.index)-0".utf8)), .array($0.fields.map { .string(Array($0.utf8)) })]) }
        #expect(stored.flatMap(ClusterEntry.init) == entry)
    }
}
