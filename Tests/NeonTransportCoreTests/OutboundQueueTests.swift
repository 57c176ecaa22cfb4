@testable import NeonTransportCore
import Testing

@Suite("Outbound queue: order, coalescing and its bounds")
struct OutboundQueueTests {
    private func frame(_ text: String, key: String? = nil) -> OutboundFrame {
        let utf8 = Array(text.utf8)
        return utf8.withUnsafeBytes { OutboundFrame(kind: .text, copying: $0, coalescingKey: key) }
    }

    /// Pops every frame, as the text it holds.
    private func drain(_ queue: inout OutboundQueue) -> [String] {
        var out: [String] = []
        while let first = queue.first {
            out.append(first.withPayload { String(decoding: $0, as: UTF8.self) })
            queue.removeFirst()
        }
        return out
    }

    @Test("ordered frames all go out, first in first out")
    func ordered() {
        var queue = OutboundQueue()
        for text in ["a", "bb", "ccc"] { queue.append(frame(text)) }
        #expect(queue.depth == QueueDepth(frames: 3, bytes: 6))
        #expect(drain(&queue) == ["a", "bb", "ccc"])
        #expect(queue.isEmpty && queue.bytes == 0 && queue.coalesced == 0)
    }

    @Test("a keyed frame replaces the waiting one with its key and goes to the tail; other keys and ordered frames stay")
    func replaces() {
        var queue = OutboundQueue()
        queue.append(frame("p1@10", key: "progress:c1"))
        queue.append(frame("edit 1"))
        queue.append(frame("p2@10", key: "progress:c2"))
        queue.append(frame("p1@20", key: "progress:c1"))
        queue.append(frame("edit 2"))
        #expect(queue.depth == QueueDepth(frames: 4, bytes: 22))
        #expect(queue.coalesced == 1)
        #expect(drain(&queue) == ["edit 1", "p2@10", "p1@20", "edit 2"])
    }

    @Test("a keyed frame whose predecessor was already written is queued normally")
    func afterWrite() {
        var queue = OutboundQueue()
        queue.append(frame("p@1", key: "k"))
        queue.removeFirst()
        queue.append(frame("p@2", key: "k"))
        queue.append(frame("p@3", key: "k"))
        #expect(queue.coalesced == 1)
        #expect(drain(&queue) == ["p@3"])
    }

    @Test("a stalled queue fed 100,000 updates for 3 readers holds 3 frames plus its ordered ones, in order")
    func stalled() {
        var queue = OutboundQueue()
        for step in 0 ..< 100_000 {
            queue.append(frame("c\(step % 3)@\(step)", key: "progress:c\(step % 3)"))
            if step % 25_000 == 0 { queue.append(frame("edit \(step)")) }
        }
        #expect(queue.count == 7)
        #expect(queue.coalesced == 100_000 - 3)
        #expect(drain(&queue) == ["edit 0", "edit 25000", "edit 50000", "edit 75000", "c1@99997", "c2@99998", "c0@99999"])
    }

    @Test("removeAll empties the queue and forgets keys; the coalesced count stays")
    func removeAll() {
        var queue = OutboundQueue()
        queue.append(frame("a", key: "k"))
        queue.append(frame("b", key: "k"))
        queue.removeAll()
        #expect(queue.isEmpty && queue.bytes == 0 && queue.first == nil)
        queue.append(frame("c", key: "k"))
        #expect(queue.coalesced == 1)
        #expect(drain(&queue) == ["c"])
    }

    @Test("a keyed frame that joined an empty queue is still replaced by the next one with its key, and forgotten once written")
    func firstInEmptyQueue() {
        var queue = OutboundQueue()
        queue.append(frame("p1@10", key: "progress:c1"))
        queue.append(frame("p1@20", key: "progress:c1"))
        #expect(queue.depth == QueueDepth(frames: 1, bytes: 5) && queue.coalesced == 1)
        #expect(drain(&queue) == ["p1@20"])
        queue.append(frame("p1@30", key: "progress:c1"))
        queue.removeFirst()
        queue.append(frame("p1@40", key: "progress:c1"))
        queue.append(frame("edit"))
        queue.append(frame("p1@50", key: "progress:c1"))
        #expect(queue.coalesced == 2)
        #expect(drain(&queue) == ["edit", "p1@50"])
    }
}
