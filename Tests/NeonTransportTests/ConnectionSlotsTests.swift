@testable import NeonTransport
import NeonTransportCore
import Testing

/// A value whose end the test can see.
private final class Tracked {
    let id: UInt64
    init(_ id: UInt64) { self.id = id }
}

/// A small deterministic generator (SplitMix64), so a failure repeats.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

@Suite("Connection slots: a service thread's sessions by id, without hashing")
struct ConnectionSlotsTests {
    /// Opens and closes connections as a shard does (ids in its sequence,
    /// closed in any order), checking every lookup and every broadcast loop
    /// against a dictionary.
    @Test("Agrees with a dictionary through 20,000 random opens, closes, lookups and broadcasts", arguments: [
        (first: UInt64(1), stride: 1), (first: 2, stride: 3), (first: 4, stride: 4),
    ])
    func agreesWithDictionary(shard: (first: UInt64, stride: Int)) {
        var slots = ConnectionSlots<Tracked>(first: shard.first, stride: shard.stride)
        var model: [UInt64: Tracked] = [:]
        var rng = SplitMix(state: shard.first &* 977 &+ UInt64(shard.stride))
        var next = shard.first
        for step in 0..<20_000 {
            switch rng.below(10) {
            case 0...4:
                let value = Tracked(next)
                slots.insert(value, for: ConnectionID(rawValue: next))
                model[next] = value
                next += UInt64(shard.stride)
            case 5...7 where !model.isEmpty:
                let victim = Array(model.keys)[rng.below(model.count)]
                let removed = slots.remove(ConnectionID(rawValue: victim))
                #expect(removed === model.removeValue(forKey: victim), "step \(step): remove \(victim)")
            case 8:
                // Present, gone and never given out, some twice.
                let wanted = (0..<rng.below(40)).map { _ in
                    ConnectionID(rawValue: shard.first + UInt64(rng.below(Int(next - shard.first) + 8)))
                }
                var seen: [UInt64] = []
                slots.forEach(in: wanted) { seen.append($0.id) }
                #expect(seen == wanted.map(\.rawValue).filter { model[$0] != nil }, "step \(step): broadcast")
            default:
                let probe = shard.first + UInt64(rng.below(Int(next - shard.first) + 8))
                #expect(slots[ConnectionID(rawValue: probe)] === model[probe], "step \(step): lookup \(probe)")
            }
            #expect(slots.count == model.count)
            #expect(slots.capacity >= 2 * slots.count, "step \(step): more than half full")
        }
        #expect(Set(slots.all.map(\.id)) == Set(model.keys))
    }

    @Test("Ids that share a home slot are all found, and removing one in the middle of their run keeps the rest")
    func collidingRun() {
        var slots = ConnectionSlots<Tracked>()
        // Capacity 16: ids 1, 17, 33, 49 all start at slot 0; 2 at slot 1 is pushed along.
        let ids: [UInt64] = [1, 17, 2, 33, 49]
        for id in ids { slots.insert(Tracked(id), for: ConnectionID(rawValue: id)) }
        #expect(slots.capacity == 16)
        slots.remove(ConnectionID(rawValue: 17))
        for id in ids where id != 17 {
            #expect(slots[ConnectionID(rawValue: id)]?.id == id, "id \(id) after removing 17")
        }
        #expect(slots[ConnectionID(rawValue: 17)] == nil)
        slots.remove(ConnectionID(rawValue: 1))
        slots.remove(ConnectionID(rawValue: 2))
        #expect(slots[ConnectionID(rawValue: 33)]?.id == 33)
        #expect(slots[ConnectionID(rawValue: 49)]?.id == 49)
        #expect(slots.count == 2)
    }

    @Test("Grows as connections come, gives the room back as they go, and lets go of every value it held")
    func growsShrinksAndReleases() {
        var slots = ConnectionSlots<Tracked>(first: 2, stride: 2)
        weak var firstValue: Tracked?
        weak var lastValue: Tracked?
        do {
            for index in 0..<10_000 {
                let value = Tracked(UInt64(2 + 2 * index))
                if index == 0 { firstValue = value }
                if index == 9_999 { lastValue = value }
                slots.insert(value, for: ConnectionID(rawValue: value.id))
            }
        }
        #expect(slots.count == 10_000)
        #expect(slots.capacity == 32_768)
        #expect(firstValue != nil && lastValue != nil)
        for index in 0..<9_990 {
            slots.remove(ConnectionID(rawValue: UInt64(2 + 2 * index)))
        }
        #expect(firstValue == nil, "a removed value is released")
        #expect(slots.count == 10)
        #expect(slots.capacity <= 128, "10 connections left keep \(slots.capacity) slots")
        let left: Set<UInt64> = Set((9_990..<10_000).map { (index: Int) -> UInt64 in UInt64(2 + 2 * index) })
        let held: Set<UInt64> = Set(slots.all.map(\.id))
        #expect(held == left)
        slots.removeAll()
        #expect(lastValue == nil, "removeAll releases what was left")
        #expect(slots.isEmpty && slots.capacity == ConnectionSlots<Tracked>.minimumCapacity)
    }

    @Test("A broadcast's loop lends each value without keeping it")
    func forEachKeepsNothing() {
        var slots = ConnectionSlots<Tracked>()
        weak var lent: Tracked?
        do {
            let value = Tracked(1)
            lent = value
            slots.insert(value, for: ConnectionID(rawValue: 1))
        }
        var calls = 0
        slots.forEach(in: [ConnectionID(rawValue: 1), ConnectionID(rawValue: 2), ConnectionID(rawValue: 1)]) {
            #expect($0.id == 1)
            calls += 1
        }
        #expect(calls == 2)
        slots.remove(ConnectionID(rawValue: 1))
        #expect(lent == nil)
    }
}
