/// The payload of one relay benchmark message: who sent it, its number and
/// its send time, padded to a fixed size, so every server relays the same
/// bytes and any receiver (in any process on the machine; the time is
/// CLOCK_MONOTONIC) can compute the message's latency from it alone.
///
/// Form: `b<sender>.<sequence>.<sent ns>;` then `x` up to the size.
package struct RelayPayload: Equatable, Sendable {
    package var sender: Int
    package var sequence: Int
    /// Monotonic clock nanoseconds when it was sent.
    package var sentAt: Int64

    package init(sender: Int, sequence: Int, sentAt: Int64) {
        self.sender = sender
        self.sequence = sequence
        self.sentAt = sentAt
    }

    /// The payload text, padded with `x` to `size` bytes (longer when the
    /// numbers alone need more).
    package func text(size: Int) -> String {
        var text = "b\(sender).\(sequence).\(sentAt);"
        if text.utf8.count < size {
            text += String(repeating: "x", count: size - text.utf8.count)
        }
        return text
    }

    /// What NeonSync clients send: a `relay` message whose whole frame is
    /// `size` bytes (longer when the numbers alone need more).
    package func neonSyncFrame(size: Int) -> String {
        let envelope = Self.neonSyncPrefix.count + Self.neonSyncSuffix.count
        let payload = text(size: size - envelope)
        return String(decoding: Self.neonSyncPrefix, as: UTF8.self) + payload + String(decoding: Self.neonSyncSuffix, as: UTF8.self)
    }

    static let neonSyncPrefix = Array(#"{"type":"relay","data":""#.utf8)
    static let neonSyncSuffix = Array(#""}"#.utf8)

    /// Reads a payload at the start of `bytes`; nil when it is not one.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> RelayPayload? {
        var index = 0
        guard bytes.count > 0, bytes[0] == UInt8(ascii: "b") else { return nil }
        index = 1
        func number(until terminator: UInt8) -> Int64? {
            var value: Int64 = 0
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, digits < 19 {
                value = value * 10 + Int64(bytes[index] - 0x30)
                index += 1
                digits += 1
            }
            guard digits > 0, index < bytes.count, bytes[index] == terminator else { return nil }
            index += 1
            return value
        }
        guard let sender = number(until: UInt8(ascii: ".")),
              let sequence = number(until: UInt8(ascii: ".")),
              let sentAt = number(until: UInt8(ascii: ";"))
        else { return nil }
        return RelayPayload(sender: Int(sender), sequence: Int(sequence), sentAt: sentAt)
    }

    /// Reads the payload inside a NeonSync `relay` broadcast (its `data`).
    package static func parseNeonSync(_ bytes: UnsafeBufferPointer<UInt8>) -> RelayPayload? {
        let scan = JSONScan(bytes)
        guard let start = scan.end(of: dataKey) else { return nil }
        return parse(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    private static let dataKey = Array(#""data":""#.utf8)
}
