/// One outbound WebSocket message, encoded once and queued to any number of
/// connections without copying.
///
/// The frame owns a single buffer: `LWS_PRE` bytes of headroom that
/// libwebsockets fills with the frame header at write time, followed by the
/// payload. The payload never changes after `init`.
///
/// Sharing rules: a frame may be queued on many connections of one
/// ``WebSocketServer`` and sent from any thread. libwebsockets writes each
/// header into the headroom on the server's service thread, so do not queue
/// the same frame on connections of two different servers at once. Client
/// connections copy the payload before masking it, so any frame may be sent
/// through any number of clients.
///
/// `@unchecked Sendable` because of `storage`, a raw pointer: the payload
/// is written once, in `init`, before the frame can reach another thread,
/// and only read after; the headroom is written only by the service thread
/// of the one server whose connections the frame is queued on (the rule
/// above). Every other stored property is an immutable `let`.
public final class OutboundFrame: @unchecked Sendable {
    /// Whether the frame goes out as a text (0x1) or binary (0x2) message.
    public enum Kind: Sendable, Equatable {
        case text
        case binary
    }

    /// Text or binary.
    public let kind: Kind
    /// For a latest-wins message (a reader's position, say): frames with the
    /// same key supersede each other. Queuing this frame to a connection
    /// drops a frame with the same key that is still waiting there, so a
    /// slow connection gets the newest and its backlog stays bounded.
    /// `nil` (the default) for ordered frames, which are never dropped.
    public let coalescingKey: String?
    /// Payload size in bytes (the headroom is not counted).
    public let count: Int
    /// Headroom plus payload; the payload starts at `headroom`.
    package let storage: UnsafeMutableRawPointer

    /// Bytes reserved in front of every payload for the frame header:
    /// libwebsockets' `LWS_PRE`, `_LWS_PAD(4 + 10 + 2)` (16 on every 64-bit
    /// build). Written here as a number so this module needs no lws; the
    /// transport checks it against the library's own value before it
    /// creates a context (`WebSocketLibrary.checkHeadroom()`).
    package static let headroom = 16

    /// Allocates a frame of `count` payload bytes and lets `body` write them.
    ///
    /// This is the zero-copy path for encoders: write the message straight
    /// into the frame. `body` must initialize all `count` bytes.
    public init<E: Error>(
        kind: Kind,
        count: Int,
        coalescingKey: String? = nil,
        initializingPayloadWith body: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        precondition(count >= 0, "OutboundFrame count must not be negative")
        self.kind = kind
        self.coalescingKey = coalescingKey
        self.count = count
        storage = UnsafeMutableRawPointer.allocate(
            byteCount: Self.headroom + max(count, 1), alignment: 16)
        do {
            try body(UnsafeMutableRawBufferPointer(start: storage + Self.headroom, count: count))
        } catch {
            storage.deallocate()
            throw error
        }
    }

    /// A text frame holding the UTF-8 of `text`.
    public convenience init(text: String) {
        var text = text
        text.makeContiguousUTF8()
        let utf8 = text.utf8
        self.init(kind: .text, count: utf8.count) { destination in
            let copied: Void? = utf8.withContiguousStorageIfAvailable { source in
                destination.copyMemory(from: UnsafeRawBufferPointer(source))
            }
            if copied == nil {
                _ = destination.initializeMemory(as: UInt8.self, from: utf8)
            }
        }
    }

    /// A binary frame holding `bytes`.
    public convenience init(binary bytes: some Collection<UInt8>) {
        self.init(kind: .binary, count: bytes.count) { destination in
            _ = destination.initializeMemory(as: UInt8.self, from: bytes)
        }
    }

    /// A frame of the given kind holding a copy of `bytes`; see
    /// ``coalescingKey`` for `coalescingKey`.
    public convenience init(kind: Kind, copying bytes: UnsafeRawBufferPointer, coalescingKey: String? = nil) {
        self.init(kind: kind, count: bytes.count, coalescingKey: coalescingKey) { destination in
            if bytes.count > 0 { destination.copyMemory(from: bytes) }
        }
    }

    deinit {
        storage.deallocate()
    }

    /// Calls `body` with the payload bytes.
    package func withPayload<R, E: Error>(
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage + Self.headroom, count: count))
    }

    /// Pointer to the first payload byte; `headroom` bytes before it are free.
    package var payloadStart: UnsafeMutableRawPointer { storage + Self.headroom }
}
