/// How much is waiting to be written to one connection.
public struct QueueDepth: Sendable, Equatable {
    /// Frames queued and not yet handed to the kernel.
    public var frames: Int
    /// Payload bytes of those frames.
    public var bytes: Int

    public init(frames: Int, bytes: Int) {
        self.frames = frames
        self.bytes = bytes
    }
}

/// What waits unsent on a server's connections, summed over its service
/// threads: queued frames and bytes, and the frames coalesced away since
/// start (on open and closed connections).
public struct Backlog: Sendable, Equatable {
    public var queued: QueueDepth
    /// Frames dropped because a newer frame with the same coalescing key
    /// replaced them before they were written.
    public var coalescedFrames: Int

    public init(queued: QueueDepth = QueueDepth(frames: 0, bytes: 0), coalescedFrames: Int = 0) {
        self.queued = queued
        self.coalescedFrames = coalescedFrames
    }

    /// Nothing waits.
    public static let empty = Backlog()

    public static func + (lhs: Backlog, rhs: Backlog) -> Backlog {
        Backlog(queued: QueueDepth(frames: lhs.queued.frames &+ rhs.queued.frames, bytes: lhs.queued.bytes &+ rhs.queued.bytes),
                coalescedFrames: lhs.coalescedFrames &+ rhs.coalescedFrames)
    }
}

/// FIFO of frames waiting for a connection's next WRITEABLE callback.
/// A frame with a ``OutboundFrame/coalescingKey`` replaces the waiting
/// frame with the same key: the old one leaves its place (a hole that is
/// skipped) and the new one joins at the tail, so every frame still goes out
/// after everything queued before it. Service thread only.
package struct OutboundQueue {
    private var frames: [OutboundFrame?] = []
    private var head = 0
    /// How many entries were dropped from the front of `frames` so far:
    /// `frames[i]` has the absolute position `base + i`.
    private var base = 0
    /// The absolute position of the waiting frame for each coalescing key.
    private var keyed: [String: Int] = [:]
    /// A keyed frame that joined an empty queue and is not in `keyed` yet:
    /// the common case (a frame queued and written in the same round) then
    /// costs no dictionary work. It enters `keyed` as soon as another frame
    /// joins behind it.
    private var unkeyed: Int?
    package private(set) var count = 0
    package private(set) var bytes = 0
    /// Frames dropped because a newer frame with the same key replaced them.
    package private(set) var coalesced = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }
    package var depth: QueueDepth { QueueDepth(frames: count, bytes: bytes) }

    package var first: OutboundFrame? { isEmpty ? nil : frames[head] }

    /// Calls `body` with the waiting frames in order, first to last, until
    /// it returns false (the order ``removeFirst()`` takes them in).
    package func forEachWaiting(_ body: (OutboundFrame) -> Bool) {
        var index = head
        while index < frames.count {
            if let frame = frames[index], !body(frame) { return }
            index += 1
        }
    }

    package mutating func append(_ frame: OutboundFrame) {
        if let position = unkeyed {
            unkeyed = nil
            if let waiting = frames[position - base], let key = waiting.coalescingKey { keyed[key] = position }
        }
        if frame.coalescingKey != nil, isEmpty {
            unkeyed = base + frames.count
        } else if let key = frame.coalescingKey {
            if let position = keyed[key], let old = frames[position - base] {
                frames[position - base] = nil
                count -= 1
                bytes -= old.count
                coalesced += 1
            }
            keyed[key] = base + frames.count
        }
        frames.append(frame)
        count += 1
        bytes += frame.count
        skipHoles()
        if frames.count - head > 64, frames.count - head > 4 * count {
            compact()
        }
    }

    /// Takes the first waiting frame off the queue; nil when it is empty.
    @discardableResult
    package mutating func removeFirst() -> OutboundFrame? {
        guard !isEmpty, let frame = frames[head] else { return nil }
        if unkeyed == base + head {
            unkeyed = nil
        } else if let key = frame.coalescingKey, keyed[key] == base + head {
            keyed[key] = nil
        }
        bytes -= frame.count
        count -= 1
        frames[head] = nil
        head += 1
        skipHoles()
        if head == frames.count {
            frames.removeAll(keepingCapacity: frames.count <= 64)
            base += head
            head = 0
        } else if head >= 64, head * 2 >= frames.count {
            frames.removeFirst(head)
            base += head
            head = 0
        }
        return frame
    }

    package mutating func removeAll() {
        base += frames.count
        frames.removeAll()
        keyed.removeAll()
        unkeyed = nil
        head = 0
        count = 0
        bytes = 0
    }

    /// Drops the holes, so a stalled connection that keeps getting newer
    /// positions holds one entry per key, not one per update.
    private mutating func compact() {
        let live = frames[head...].compactMap { $0 }
        base += frames.count
        frames = live
        head = 0
        keyed.removeAll(keepingCapacity: true)
        unkeyed = nil
        for (index, frame) in live.enumerated() {
            if let key = frame.coalescingKey { keyed[key] = base + index }
        }
    }

    /// Moves `head` past the holes replaced frames left.
    private mutating func skipHoles() {
        while head < frames.count, frames[head] == nil {
            head += 1
        }
    }
}
