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

/// FIFO of frames waiting for a connection's next WRITEABLE callback.
/// Service thread only.
struct OutboundQueue {
    private var frames: [OutboundFrame?] = []
    private var head = 0
    private(set) var bytes = 0

    var isEmpty: Bool { head == frames.count }
    var count: Int { frames.count - head }
    var depth: QueueDepth { QueueDepth(frames: count, bytes: bytes) }

    var first: OutboundFrame? { isEmpty ? nil : frames[head] }

    mutating func append(_ frame: OutboundFrame) {
        frames.append(frame)
        bytes += frame.count
    }

    mutating func removeFirst() {
        guard let frame = frames[head] else { return }
        bytes -= frame.count
        frames[head] = nil
        head += 1
        if head == frames.count {
            frames.removeAll(keepingCapacity: frames.count <= 64)
            head = 0
        } else if head >= 64, head * 2 >= frames.count {
            frames.removeFirst(head)
            head = 0
        }
    }

    mutating func removeAll() {
        frames.removeAll()
        head = 0
        bytes = 0
    }
}
