// A libFuzzer target over the server's message handling: NeonCore's
// WireCodec decoding and the Hub reducer, exactly as the server's router
// drives them, with no transport. Built and run by scripts/fuzz.sh (not
// part of `swift build`: it is compiled together with NeonCore's sources
// under -sanitize=fuzzer,address).
//
// The input is a session: newline-separated frames from three clients,
// line i from client i % 3; an empty line disconnects that client instead.
// Besides "no crash, no hang, no leak" it checks that every message the hub
// answers with encodes to JSON that decodes back to the same message.

private let codec = WireCodec()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessages(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var hub = Hub(limits: RoomLimits(), maxRooms: 16)
    let clients = [ClientID("c1"), ClientID("c2"), ClientID("c3")]
    for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
        let client = clients[index % clients.count]
        let event: HubEvent
        if line.isEmpty {
            event = .disconnected(client)
        } else {
            switch codec.decodeClient(line) {
            case let .success(message): event = .received(client, message)
            case let .failure(error): event = .rejected(client, error)
            }
        }
        for output in hub.apply(event, at: .milliseconds(index * 250)) {
            switch output {
            case let .send(message, _), let .broadcast(message, _, _):
                checkRoundTrip(message)
            case .log, .persist:
                break
            }
        }
    }
    for client in clients {
        _ = hub.apply(.disconnected(client), at: .seconds(3600))
    }
    return 0
}

/// Traps (a finding) when a server message does not survive the wire.
private func checkRoundTrip(_ message: ServerMessage) {
    let encoded = codec.encode(message)
    guard let decoded = try? codec.decodeServer(encoded) else {
        fatalError("the server sent JSON it cannot read back: \(String(decoding: encoded, as: UTF8.self))")
    }
    if decoded != message {
        fatalError("a server message changed on the wire: \(message) became \(decoded)")
    }
}
