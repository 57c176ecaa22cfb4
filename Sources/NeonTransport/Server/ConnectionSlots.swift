import NeonTransportCore

/// One service thread's values by connection id, found without hashing.
///
/// A service thread gives out the ids `first, first+stride, first+2·stride,
/// …` (``ShardMap``), so an id's place in that sequence, `(id − first) /
/// stride`, spreads the ids evenly: the table is open-addressed (linear
/// probing) with that place, modulo its power-of-two capacity, as an id's
/// home slot. It stays at most half full, doubles as it fills and halves
/// once under an eighth full, so a thread that served 10,000 connections
/// for a while does not keep their room. A removal shifts the entries
/// after it back (no tombstones), so a lookup stops at the first empty
/// slot.
///
/// The table owns its values. ``forEach(in:_:)``, a broadcast's loop over
/// its recipients, lends each one to the body without a retain and a
/// release. Service thread only, like what it holds.
struct ConnectionSlots<Value: AnyObject> {
    /// The id in each slot; 0 (no id is 0) marks an empty one.
    private var ids: [UInt64]
    private var values: [Value?]
    private var mask: Int
    private let first: UInt64
    private let stride: UInt64
    /// Values held.
    private(set) var count = 0

    /// The smallest capacity, also the first.
    static var minimumCapacity: Int { 16 }

    /// An empty table for the ids `first, first+stride, …`.
    init(first: UInt64 = 1, stride: Int = 1) {
        precondition(first >= 1 && stride >= 1, "connection ids start at 1 and grow by at least 1")
        self.first = first
        self.stride = UInt64(stride)
        ids = Array(repeating: 0, count: Self.minimumCapacity)
        values = Array(repeating: nil, count: Self.minimumCapacity)
        mask = Self.minimumCapacity - 1
    }

    /// Slots in the table now (a power of two).
    var capacity: Int { ids.count }

    var isEmpty: Bool { count == 0 }

    /// Where `raw` starts looking.
    private func home(_ raw: UInt64) -> Int {
        Int(truncatingIfNeeded: (raw &- first) / stride) & mask
    }

    /// The slot holding `raw`, if any.
    private func slot(of raw: UInt64, in ids: UnsafeBufferPointer<UInt64>) -> Int? {
        var index = home(raw)
        while true {
            let here = ids[index]
            if here == raw { return index }
            if here == 0 { return nil }
            index = (index &+ 1) & mask
        }
    }

    subscript(id: ConnectionID) -> Value? {
        ids.withUnsafeBufferPointer { slot(of: id.rawValue, in: $0) }.flatMap { values[$0] }
    }

    /// Holds `value` under `id`, in place of any value already there.
    mutating func insert(_ value: Value, for id: ConnectionID) {
        precondition(id.rawValue != 0, "connection ids start at 1")
        if let index = ids.withUnsafeBufferPointer({ slot(of: id.rawValue, in: $0) }) {
            values[index] = value
            return
        }
        if (count + 1) * 2 > capacity {
            resize(to: capacity * 2)
        }
        place(id.rawValue, value)
        count += 1
    }

    /// Lets go of the value under `id` and returns it; nil when none is.
    @discardableResult
    mutating func remove(_ id: ConnectionID) -> Value? {
        guard var hole = ids.withUnsafeBufferPointer({ slot(of: id.rawValue, in: $0) }) else { return nil }
        let removed = values[hole]
        // Backward shift: each entry after the hole that may move back
        // (its home is not in the cyclic range (hole, here]) fills it.
        var here = hole
        while true {
            here = (here + 1) & mask
            let raw = ids[here]
            if raw == 0 { break }
            let start = home(raw)
            let stays = hole <= here ? (hole < start && start <= here) : (hole < start || start <= here)
            if stays { continue }
            ids[hole] = raw
            values[hole] = values[here]
            hole = here
        }
        ids[hole] = 0
        values[hole] = nil
        count -= 1
        if capacity > Self.minimumCapacity, count * 8 < capacity {
            resize(to: capacity / 2)
        }
        return removed
    }

    /// Lets go of every value; the table shrinks to its first size.
    mutating func removeAll() {
        self = ConnectionSlots(first: first, stride: Int(stride))
    }

    /// Every value held, in no particular order.
    var all: [Value] {
        values.compactMap { $0 }
    }

    /// Calls `body` with the value of each of `wanted` that the table
    /// holds, in their order, skipping the others. The value is lent, not
    /// retained: `body` must not remove it from the table (the value is
    /// alive while the table holds it, and the table is not changed while
    /// this runs).
    func forEach(in wanted: [ConnectionID], _ body: (Value) -> Void) {
        ids.withUnsafeBufferPointer { ids in
            values.withUnsafeBufferPointer { values in
                // `Value?` and `Unmanaged<Value>?` are both one pointer,
                // nil as zero: read as the latter, a value is not retained.
                let base = UnsafeRawPointer(values.baseAddress!)
                for id in wanted {
                    guard let index = slot(of: id.rawValue, in: ids),
                          let lent = base.load(fromByteOffset: index &* MemoryLayout<Value?>.stride,
                                               as: Unmanaged<Value>?.self) else { continue }
                    lent._withUnsafeGuaranteedRef(body)
                }
            }
        }
    }

    /// Moves every entry into a table of `newCapacity` slots.
    private mutating func resize(to newCapacity: Int) {
        let oldIDs = ids, oldValues = values
        ids = Array(repeating: 0, count: newCapacity)
        values = Array(repeating: nil, count: newCapacity)
        mask = newCapacity - 1
        for index in oldIDs.indices where oldIDs[index] != 0 {
            place(oldIDs[index], oldValues[index]!)
        }
    }

    /// Puts `raw` in the first empty slot from its home (it is not there).
    private mutating func place(_ raw: UInt64, _ value: Value) {
        var index = home(raw)
        while ids[index] != 0 {
            index = (index + 1) & mask
        }
        ids[index] = raw
        values[index] = value
    }
}
