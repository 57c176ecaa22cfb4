@testable import NeonTransportCore
import Testing

@Suite("Message reassembly without sockets")
struct MessageAssemblerTests {
    private func feed(_ assembler: inout MessageAssembler, _ bytes: [UInt8], binary: Bool = false, final: Bool, remaining: Int = 0) -> MessageAssembler.Outcome {
        bytes.withUnsafeBytes { assembler.consume($0, isBinary: binary, isFinal: final, remainingInFrame: remaining) }
    }

    @Test("Chunks are joined until the final one")
    func joinsChunks() {
        var assembler = MessageAssembler(limit: 100)
        #expect(feed(&assembler, Array("héllo ".utf8), final: false) == .incomplete)
        #expect(feed(&assembler, Array("wörld".utf8), binary: true, final: true) == .message(.text("héllo wörld")))
        #expect(feed(&assembler, [1, 2], binary: true, final: true) == .message(.binary([1, 2])))
    }

    @Test("A UTF-8 sequence split across chunks is valid")
    func splitSequence() {
        var assembler = MessageAssembler(limit: 100)
        let bytes = Array("✓".utf8)
        #expect(feed(&assembler, Array(bytes[..<1]), final: false) == .incomplete)
        #expect(feed(&assembler, Array(bytes[1...]), final: true) == .message(.text("✓")))
    }

    @Test("The limit counts announced but unread frame bytes, then resets")
    func limit() {
        var assembler = MessageAssembler(limit: 10)
        #expect(feed(&assembler, [1, 2, 3], binary: true, final: false, remaining: 8) == .rejected(.messageTooBig(limit: 10)))
        #expect(feed(&assembler, Array(repeating: 0, count: 10), binary: true, final: true) == .message(.binary(Array(repeating: 0, count: 10))))
        #expect(feed(&assembler, Array(repeating: 0, count: 6), binary: true, final: false) == .incomplete)
        #expect(feed(&assembler, Array(repeating: 0, count: 5), binary: true, final: true) == .rejected(.messageTooBig(limit: 10)))
    }

    @Test("Invalid UTF-8 text is rejected; the same bytes as binary are not")
    func invalidUTF8() {
        var assembler = MessageAssembler(limit: 100)
        #expect(feed(&assembler, [0xC3, 0x28], final: true) == .rejected(.invalidUTF8))
        #expect(feed(&assembler, [0xC3, 0x28], binary: true, final: true) == .message(.binary([0xC3, 0x28])))
    }

    @Test("OutboundFrame keeps text, binary and encoder-written payloads intact")
    func outboundFrames() {
        #expect(OutboundFrame(text: "hé").withPayload { Array($0) } == Array("hé".utf8))
        #expect(OutboundFrame(text: "").count == 0)
        #expect(OutboundFrame(binary: [9, 8]).withPayload { Array($0) } == [9, 8])
        let encoded = OutboundFrame(kind: .text, count: 3) { $0.copyBytes(from: Array("abc".utf8)) }
        #expect(encoded.kind == .text)
        #expect(encoded.withPayload { Array($0) } == Array("abc".utf8))
    }
}
