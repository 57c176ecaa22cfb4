import Foundation
import NeonCore
@testable import NeonServer
import Testing

/// Replies recorded from redis-server 7.0.15 by Tests/Fixtures/redis/record.py
/// (raw RESP, one or more replies a file): room "r" of incarnation 7, whose
/// entries 1-2 are the hellos of c1 and c2 and 3-4 their byes.
enum RecordedReplies {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/redis")

    /// Every reply `name`.resp holds, in order.
    static func all(_ name: String) throws -> [RedisReply] {
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name + ".resp")))
        var at = 0
        var replies: [RedisReply] = []
        while at < bytes.count { replies.append(try parse(bytes, &at)) }
        return replies
    }

    /// The one reply `name`.resp holds.
    static func one(_ name: String) throws -> RedisReply {
        let replies = try all(name)
        try #require(replies.count == 1, "\(name).resp holds \(replies.count) replies")
        return replies[0]
    }

    /// RESP 2, as redis-server writes it to hiredis.
    private static func parse(_ bytes: [UInt8], _ at: inout Int) throws -> RedisReply {
        guard let end = (at ..< bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else {
            throw RecordedReplyError(offset: at)
        }
        let kind = bytes[at]
        let head = String(decoding: bytes[(at + 1) ..< end], as: UTF8.self)
        at = end + 2
        switch kind {
        case UInt8(ascii: "+"): return .status(head)
        case UInt8(ascii: "-"): return .error(head)
        case UInt8(ascii: ":"): return .integer(Int(head) ?? 0)
        case UInt8(ascii: "$"):
            guard let count = Int(head), count >= 0 else { return .null }
            defer { at += count + 2 }
            return .string(Array(bytes[at ..< at + count]))
        case UInt8(ascii: "*"):
            guard let count = Int(head), count >= 0 else { return .null }
            var items: [RedisReply] = []
            for _ in 0 ..< count { items.append(try parse(bytes, &at)) }
            return .array(items)
        default:
            throw RecordedReplyError(offset: at)
        }
    }
}

struct RecordedReplyError: Error, CustomStringConvertible {
    var offset: Int
    var description: String { "the recorded reply is not RESP at byte \(offset)" }
}

/// The reader's decisions fed recorded replies, without a Redis: each
/// action is written as a line (what is sent where, what the node is
/// handed) so a test reads as the exchange it checks.
@Suite("Cluster reader state: take-up, gaps, checks and requests from recorded replies")
struct ClusterReaderStateTests {
    static let channel = "neonsync:{r}:events"
    static let loadR = "ask EVALSHA sha 2 neonsync:{r}:snap neonsync:{r}:log"

    static func lines(_ actions: [ReaderState.Action]) -> [String] {
        actions.map { action in
            switch action {
            case let .subscriber(commands): "subscriber " + commands.map { $0.joined(separator: " ") }.joined(separator: " | ")
            case let .ask(commands): "ask " + commands.map { $0.joined(separator: " ") }.joined(separator: " | ")
            case let .deliver(delivery): line(delivery)
            case let .reconnect(delay): "reconnect after \(delay)"
            }
        }
    }

    static func line(_ delivery: ClusterDelivery) -> String {
        switch delivery {
        case let .loaded(room, image, entries, applied):
            "loaded \(room) image \(image.map { String($0.seq) } ?? "none") entries \(indices(entries)) applied \(applied)"
        case let .entries(room, entries): "entries \(room) \(indices(entries))"
        case let .undecodable(room, problem, _): "undecodable \(room) \(problem.source) \(problem.index.map(String.init) ?? "?")"
        case let .removed(room): "removed \(room)"
        default: "\(delivery)"
        }
    }

    static func indices(_ entries: [RoomEntry]) -> String {
        entries.isEmpty ? "-" : entries.map { String($0.index) }.joined(separator: ",")
    }

    /// A connected reader that holds room "r", taken up from `load`.
    static func holding(_ load: String) throws -> ReaderState {
        var state = ReaderState(decoder: EntryDecoder(generation: 1, sent: SentMessages()))
        #expect(state.handle(.connected(loadScript: "sha", rangeScript: "range")).isEmpty)
        #expect(lines(state.handle(.requests([.want("r")]))) == ["subscriber SUBSCRIBE \(channel)", loadR])
        _ = state.handle(.replies([try RecordedReplies.one(load)]))
        return state
    }

    static func published(_ indices: Int...) throws -> [RedisReply] {
        let all = try RecordedReplies.all("published-1-4")
        return indices.map { all[$0 - 1] }
    }

    @Test("a room is subscribed to, then taken up from its image and log; its published entries are handed over in order, in one delivery, after the subscription's confirmation")
    func inOrder() throws {
        var state = ReaderState(decoder: EntryDecoder(generation: 1, sent: SentMessages()))
        _ = state.handle(.connected(loadScript: "sha", rangeScript: "range"))
        #expect(Self.lines(state.handle(.requests([.want("r")]))) == ["subscriber SUBSCRIBE \(Self.channel)", Self.loadR])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("load-empty")]))) == ["loaded r image none entries - applied 0"])
        let messages = try RecordedReplies.all("subscribe") + RecordedReplies.all("published-1-4")
        #expect(Self.lines(state.handle(.published(messages))) == ["entries r 1,2,3,4"])
        #expect(state.rooms == ["r": 4])
    }

    @Test("an entry past the next one: what came before it is handed over, the gap is read from the log, and an entry handed over already is passed over")
    func gapFromTheLog() throws {
        var state = try Self.holding("load-empty")
        #expect(Self.lines(state.handle(.published(try Self.published(1, 3, 4)))) == ["entries r 1", "ask EVALSHA range 0 r 1"])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("xrange-after-1")])))
            == ["entries r 2,3,4"], "4, published after the gap, was in the log already")
        #expect(state.handle(.published(try Self.published(2, 4))).isEmpty)
        #expect(state.rooms == ["r": 4])
    }

    @Test("a gap the log was trimmed past: the room is taken up again from its image, and the node is told what it applied already")
    func gapPastTheTrimmedLog() throws {
        var state = try Self.holding("load-empty")
        #expect(Self.lines(state.handle(.published(try Self.published(1, 4)))) == ["entries r 1", "ask EVALSHA range 0 r 1"])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("xrange-trimmed")]))) == [Self.loadR])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("load-image")]))) == ["loaded r image 3 entries 4 applied 1"])
        #expect(state.rooms == ["r": 4])
    }

    @Test("entries taken up with the room and published again are not handed over twice")
    func duplicates() throws {
        var state = ReaderState(decoder: EntryDecoder(generation: 1, sent: SentMessages()))
        _ = state.handle(.connected(loadScript: "sha", rangeScript: "range"))
        _ = state.handle(.requests([.want("r")]))
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("load-4")]))) == ["loaded r image none entries 1,2,3,4 applied 0"])
        #expect(state.handle(.published(try Self.published(1, 2, 3, 4))).isEmpty)
        #expect(state.handle(.published(try Self.published(3))).isEmpty)
    }

    @Test("the periodic check finds a quiet room's missed last entry from its counter, and takes a room up again when its counter went back")
    func periodicCheck() throws {
        var state = try Self.holding("load-empty")
        #expect(Self.lines(state.handle(.published(try Self.published(1, 2, 3)))) == ["entries r 1,2,3"])
        #expect(Self.lines(state.handle(.tick)) == ["ask MGET neonsync:{r}:v neonsync:{r}:n"])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("mget-4")]))) == ["ask EVALSHA range 0 r 3"])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("xrange-after-3")]))) == ["entries r 4"])
        #expect(Self.lines(state.handle(.tick)) == ["ask MGET neonsync:{r}:v neonsync:{r}:n"])
        #expect(state.handle(.replies([try RecordedReplies.one("mget-4")])).isEmpty, "nothing missed")
        #expect(Self.lines(state.handle(.tick)) == ["ask MGET neonsync:{r}:v neonsync:{r}:n"])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("mget-none")]))) == [Self.loadR], "Redis lost the room")
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("load-empty")]))) == ["loaded r image none entries - applied 0"])
    }

    @Test("wants and releases are served in the order made: a room wanted twice is taken up once, want then release ends unsubscribed, release then want ends subscribed and taken up afresh, a release of a room never held sends nothing")
    func requestsInOrder() throws {
        let empty = try RecordedReplies.one("load-empty")
        var state = ReaderState(decoder: EntryDecoder(generation: 1, sent: SentMessages()))
        #expect(state.handle(.requests([.want("one"), .want("two"), .want("one")])).isEmpty, "not connected yet")
        #expect(Self.lines(state.handle(.connected(loadScript: "sha", rangeScript: "range"))) == [
            "subscriber SUBSCRIBE neonsync:{one}:events | SUBSCRIBE neonsync:{two}:events",
            "ask EVALSHA sha 2 neonsync:{one}:snap neonsync:{one}:log | EVALSHA sha 2 neonsync:{two}:snap neonsync:{two}:log",
        ])
        #expect(Self.lines(state.handle(.replies([empty, empty]))) == ["loaded one image none entries - applied 0",
                                                                     "loaded two image none entries - applied 0"])
        #expect(state.requests.isEmpty && Set(state.rooms.keys) == ["one", "two"])

        #expect(Self.lines(state.handle(.requests([.want("three"), .release("three"), .release("two"), .want("two"), .release("never")])))
            == ["subscriber SUBSCRIBE neonsync:{three}:events", "ask EVALSHA sha 2 neonsync:{three}:snap neonsync:{three}:log"])
        #expect(Self.lines(state.handle(.replies([empty]))) == [
            "loaded three image none entries - applied 0",
            "subscriber UNSUBSCRIBE neonsync:{three}:events",
            "subscriber UNSUBSCRIBE neonsync:{two}:events",
            "subscriber SUBSCRIBE neonsync:{two}:events",
            "ask EVALSHA sha 2 neonsync:{two}:snap neonsync:{two}:log",
        ])
        #expect(Self.lines(state.handle(.replies([empty]))) == ["loaded two image none entries - applied 0"])
        #expect(state.requests.isEmpty && Set(state.rooms.keys) == ["one", "two"])

        #expect(Self.lines(state.handle(.requests([.release("one"), .release("two")])))
            == ["subscriber UNSUBSCRIBE neonsync:{one}:events", "subscriber UNSUBSCRIBE neonsync:{two}:events"])
        #expect(state.requests.isEmpty && state.rooms.isEmpty)
        #expect(state.handle(.published(try Self.published(1))).isEmpty, "a released room's messages are passed over")
    }

    @Test("a connection lost while settled is made again at once, then every room held is subscribed to and caught up; failing to connect waits longer each time, up to 2 s")
    func lostAndCaughtUp() throws {
        var state = try Self.holding("load-4")
        #expect(Self.lines(state.handle(.lost)) == ["reconnect after 0.0 seconds"])
        #expect(state.handle(.published(try Self.published(1))).isEmpty, "nothing is read while disconnected")
        #expect(Self.lines(state.handle(.lost)) == ["reconnect after 0.1 seconds"])
        #expect(Self.lines(state.handle(.lost)) == ["reconnect after 0.2 seconds"])
        for _ in 0 ..< 5 { _ = state.handle(.lost) }
        #expect(Self.lines(state.handle(.lost)) == ["reconnect after 2.0 seconds"])
        #expect(Self.lines(state.handle(.connected(loadScript: "sha2", rangeScript: "range")))
            == ["subscriber SUBSCRIBE \(Self.channel)", "ask EVALSHA range 0 r 4"])
        #expect(state.handle(.replies([try RecordedReplies.one("xrange-after-4")])).isEmpty)
        #expect(Self.lines(state.handle(.lost)) == ["reconnect after 0.0 seconds"], "settled again")
    }

    @Test("a connection lost while a want was served: it is made again at once, the want is served again, and the room taken up")
    func lostWhileTakingUp() throws {
        var state = ReaderState(decoder: EntryDecoder(generation: 1, sent: SentMessages()))
        _ = state.handle(.connected(loadScript: "sha", rangeScript: "range"))
        _ = state.handle(.requests([.want("r")]))
        #expect(Self.lines(state.handle(.lost)) == ["reconnect after 0.0 seconds"])
        #expect(state.requests == [.want("r")])
        #expect(Self.lines(state.handle(.connected(loadScript: "sha", rangeScript: "range"))) == ["subscriber SUBSCRIBE \(Self.channel)", Self.loadR])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("load-4")]))) == ["loaded r image none entries 1,2,3,4 applied 0"])
    }

    @Test("a load refused with NOSCRIPT (Redis restarted and forgot the script) makes the connections again, which loads it, and the room is taken up then")
    func noScript() throws {
        var state = ReaderState(decoder: EntryDecoder(generation: 1, sent: SentMessages()))
        _ = state.handle(.connected(loadScript: "sha", rangeScript: "range"))
        _ = state.handle(.requests([.want("r")]))
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("noscript")]))) == ["reconnect after 0.0 seconds"])
        #expect(Self.lines(state.handle(.connected(loadScript: "sha", rangeScript: "range"))) == ["subscriber SUBSCRIBE \(Self.channel)", Self.loadR])
    }

    @Test("a published entry that does not decode is reported and the room taken up again from its log")
    func undecodablePublished() throws {
        var state = try Self.holding("load-empty")
        var broken = try Self.published(1)[0]
        if case var .array(parts) = broken {
            parts[2] = .string(Array("1\u{1F}m\u{1F}c1\u{1F}7\u{1F}1000000000\u{1F}{not json".utf8))
            broken = .array(parts)
        }
        #expect(Self.lines(state.handle(.published([broken]))) == ["undecodable r publish 1", Self.loadR])
        #expect(Self.lines(state.handle(.replies([try RecordedReplies.one("load-4")]))) == ["loaded r image none entries 1,2,3,4 applied 0"])
    }
}
