import Foundation
import NeonCore
import Testing

/// The message kinds are the one list of wire `type`s: each kind's name is
/// what goes on the wire, docs/PROTOCOL.md shows an example of every kind,
/// and the unknown-type error names them all.
@Suite("Message kinds, listed once")
struct MessageKindTests {
    let codec = WireCodec()

    @Test("every client and server kind has an example in docs/PROTOCOL.md that decodes to that kind and encodes back to its type")
    func everyKindDocumented() throws {
        var client = Set<ClientMessage.Kind>()
        var server = Set<ServerMessage.Kind>()
        for line in ProtocolExamplesReplayTests.examples {
            if ProtocolExamplesReplayTests.isServerMessage(line) {
                let message = try codec.decodeServer(Array(line.utf8))
                server.insert(message.payload.kind)
                #expect(line.hasPrefix("{\"type\":\"\(message.payload.kind.rawValue)\""), "\(line)")
            } else {
                let message = try codec.decodeClient(Array(line.utf8)).get()
                client.insert(message.kind)
                let encoded = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
                #expect(encoded.contains("\"type\":\"\(message.kind.rawValue)\""), "\(encoded)")
            }
        }
        #expect(Set(ClientMessage.Kind.allCases).subtracting(client).isEmpty,
                "client kinds without an example in PROTOCOL.md: \(Set(ClientMessage.Kind.allCases).subtracting(client))")
        #expect(Set(ServerMessage.Kind.allCases).subtracting(server).isEmpty,
                "server kinds without an example in PROTOCOL.md: \(Set(ServerMessage.Kind.allCases).subtracting(server))")
    }

    @Test("an unknown type is refused naming every client kind, in the list's order")
    func unknownTypeNamesEveryKind() {
        guard case let .failure(error) = codec.decodeClient(Array(#"{"type":"dance"}"#.utf8)) else {
            Issue.record("\"dance\" decoded")
            return
        }
        #expect(error.code == .unknownType)
        #expect(error.message.hasSuffix("the types are hello, document, scroll, tab, follow, edit, cursor, relay, point, unpoint, pointing, ask, answered, output, summon"),
                "\(error.message)")
    }
}
