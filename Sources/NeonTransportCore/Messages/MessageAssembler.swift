/// Reassembles one connection's inbound fragments into whole messages,
/// enforcing the size limit and validating text as UTF-8.
///
/// Pure value type: fed by the receive callbacks, tested without sockets.
package struct MessageAssembler {
    /// What one received chunk produced.
    package enum Outcome: Equatable {
        /// More fragments are needed.
        case incomplete
        /// A whole message arrived.
        case message(WebSocketMessage)
        /// The message broke a rule; the connection must be closed.
        case rejected(InboundRejection)
    }

    /// Largest accepted message, in bytes.
    package let limit: Int
    private var buffer: [UInt8] = []
    private var inProgress = false
    private var isBinary = false

    package init(limit: Int) {
        self.limit = limit
    }

    /// Feeds one received chunk.
    ///
    /// - Parameters:
    ///   - chunk: the bytes lws delivered in this callback.
    ///   - isBinary: `lws_frame_is_binary`, read on a message's first chunk.
    ///   - isFinal: `lws_is_final_fragment`: this chunk ends the message.
    ///   - remainingInFrame: `lws_remaining_packet_payload`: bytes of the
    ///     current frame still to come, so oversize frames fail early.
    package mutating func consume(
        _ chunk: UnsafeRawBufferPointer, isBinary: Bool, isFinal: Bool, remainingInFrame: Int
    ) -> Outcome {
        if !inProgress {
            self.isBinary = isBinary
        }
        if buffer.count + chunk.count + remainingInFrame > limit {
            reset()
            return .rejected(.messageTooBig(limit: limit))
        }
        if !inProgress && isFinal {
            return Self.message(from: chunk.assumingMemoryBound(to: UInt8.self), isBinary: isBinary)
        }
        if !inProgress {
            buffer.reserveCapacity(min(limit, chunk.count + remainingInFrame))
        }
        buffer.append(contentsOf: chunk)
        inProgress = true
        guard isFinal else { return .incomplete }
        let outcome = buffer.withUnsafeBufferPointer { Self.message(from: $0, isBinary: self.isBinary) }
        reset()
        return outcome
    }

    private mutating func reset() {
        buffer = []
        inProgress = false
    }

    private static func message(from bytes: UnsafeBufferPointer<UInt8>, isBinary: Bool) -> Outcome {
        if isBinary {
            return .message(.binary(Array(bytes)))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .rejected(.invalidUTF8)
        }
        return .message(.text(text))
    }
}
