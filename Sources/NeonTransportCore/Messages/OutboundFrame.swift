/// One outbound WebSocket message, encoded once and queued to any number of
/// connections without copying.
///
/// The frame owns a single buffer: `LWS_PRE` bytes of headroom that
/// libwebsockets may use, the frame's own header (a server frame's: FIN,
/// the opcode and the length, unmasked), written once in `init`, and the
/// payload. A server connection sends the header and payload as they are,
/// as raw bytes (``framed``); nothing writes the frame after `init`.
///
/// Sharing rules: a frame may be queued on any number of connections, of
/// any number of servers and service threads, and sent from any thread.
/// Client connections copy the payload before masking it (and lws writes a
/// client's header into the copy), so any frame may be sent through any
/// number of clients too.
///
/// `@unchecked Sendable` because of `storage`, a raw pointer: the header
/// and payload are written once, in `init`, before the frame can reach
/// another thread, and only read after. Every other stored property is an
/// immutable `let`.
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
    /// Headroom, header room and payload; the payload starts at
    /// `headroom + headerRoom`, its header right before it.
    package let storage: UnsafeMutableRawPointer
    /// Bytes of the frame's header before the payload: 2, 4 or 10.
    package let headerSize: Int

    /// Bytes reserved in front of every payload for the frame header:
    /// libwebsockets' `LWS_PRE`, `_LWS_PAD(4 + 10 + 2)` (16 on every 64-bit
    /// build). Written here as a number so this module needs no lws; the
    /// transport checks it against the library's own value before it
    /// creates a context (`WebSocketLibrary.checkHeadroom()`).
    package static let headroom = 16

    /// Room for the longest server frame header (10 bytes: FIN and opcode,
    /// 127, a 64-bit length), between the headroom and the payload.
    package static let headerRoom = 10

    /// The header of an unmasked, final frame of `count` payload bytes.
    package static func headerSize(_ count: Int) -> Int {
        count < 126 ? 2 : count < 65_536 ? 4 : 10
    }

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
        headerSize = Self.headerSize(count)
        storage = UnsafeMutableRawPointer.allocate(
            byteCount: Self.headroom + Self.headerRoom + max(count, 1), alignment: 16)
        // Every stored property is set: if `body` throws, the frame is
        // deinitialized, and `deinit` frees the buffer.
        try body(UnsafeMutableRawBufferPointer(start: storage + Self.headroom + Self.headerRoom, count: count))
        writeHeader()
    }

    /// Writes the header of a final, unmasked frame right before the payload.
    private func writeHeader() {
        let header = payloadStart - headerSize
        header.storeBytes(of: 0x80 | (kind == .text ? 0x1 : 0x2) as UInt8, as: UInt8.self)
        switch headerSize {
        case 2:
            header.storeBytes(of: UInt8(count), toByteOffset: 1, as: UInt8.self)
        case 4:
            header.storeBytes(of: 126 as UInt8, toByteOffset: 1, as: UInt8.self)
            header.storeBytes(of: UInt16(count).bigEndian, toByteOffset: 2, as: UInt16.self)
        default:
            header.storeBytes(of: 127 as UInt8, toByteOffset: 1, as: UInt8.self)
            header.storeBytes(of: UInt64(count).bigEndian, toByteOffset: 2, as: UInt64.self)
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
        try body(UnsafeRawBufferPointer(start: payloadStart, count: count))
    }

    /// Pointer to the first payload byte; at least `headroom` bytes before
    /// its header are free.
    package var payloadStart: UnsafeMutableRawPointer { storage + Self.headroom + Self.headerRoom }

    /// The whole server frame, header and payload, as it goes on the wire;
    /// valid while the frame is alive (a queue holds it, or
    /// `withExtendedLifetime`).
    package var framed: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: payloadStart - headerSize, count: headerSize + count)
    }
}
