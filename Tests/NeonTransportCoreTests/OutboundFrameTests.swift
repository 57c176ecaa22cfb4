@testable import NeonTransportCore
import Testing

/// A server frame is framed once, when it is made: the header RFC 6455 §5.2
/// gives a final, unmasked frame, right before the payload, so every
/// connection and thread sends the same bytes and none writes them.
@Suite("Outbound frames: framed once, header and payload")
struct OutboundFrameTests {
    /// The frame's bytes on the wire, read while the frame is alive.
    private func wire(_ frame: OutboundFrame) -> [UInt8] {
        withExtendedLifetime(frame) { Array(frame.framed) }
    }

    @Test("the header holds FIN, the opcode and the length in 7, 16 or 64 bits, and the payload follows it",
          arguments: [(0, [0x81, 0]), (125, [0x81, 125]), (126, [0x81, 126, 0, 126]),
                      (65_535, [0x81, 126, 0xFF, 0xFF]), (65_536, [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])])
    func header(count: Int, header: [UInt8]) {
        let frame = OutboundFrame(text: String(repeating: "a", count: count))
        let framed = wire(frame)
        #expect(Array(framed.prefix(header.count)) == header)
        #expect(framed.count == header.count + count)
        #expect(framed.dropFirst(header.count).allSatisfy { $0 == UInt8(ascii: "a") })
    }

    @Test("a binary frame's opcode is 2, and at least LWS_PRE bytes stay free before its header")
    func binary() {
        let frame = OutboundFrame(binary: [1, 2, 3])
        #expect(wire(frame) == [0x82, 3, 1, 2, 3])
        let before = withExtendedLifetime(frame) { frame.framed.baseAddress! - UnsafeRawPointer(frame.storage) }
        #expect(before >= OutboundFrame.headroom)
    }

    @Test("an encoder that throws while writing the payload gets its error back, and the frame's buffer is freed once")
    func throwingEncoder() {
        struct Refused: Error {}
        for _ in 0..<3 {
            #expect(throws: Refused.self) {
                _ = try OutboundFrame(kind: .text, count: 64) { (_: UnsafeMutableRawBufferPointer) throws(Refused) in throw Refused() }
            }
        }
        #expect(wire(OutboundFrame(text: "after")) == [0x81, 5] + Array("after".utf8))
    }
}
