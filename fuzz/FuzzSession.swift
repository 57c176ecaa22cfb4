// What the fuzz targets over NeonCore share: a session replayed through the
// Hub as the server's router drives it, the round-trip check on every
// answer, and the seed writer. Compiled into each target by scripts/fuzz.sh.

import Foundation

let fuzzCodec = WireCodec()

/// Feeds `bytes` to `hub` as a session: newline-separated frames, line i
/// from `clients[i % clients.count]`; an empty line disconnects that client
/// instead. Every message the hub answers with must survive the wire.
func replaySession(_ bytes: some Collection<UInt8>, clients: [ClientID], into hub: inout Hub) {
    for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
        let client = clients[index % clients.count]
        let event: HubEvent
        if line.isEmpty {
            event = .disconnected(client)
        } else {
            switch fuzzCodec.decodeClient(line) {
            case let .success(message): event = .received(client, message)
            case let .failure(error): event = .rejected(client, error)
            }
        }
        checkOutputs(hub.apply(event, at: .milliseconds(index * 250)))
    }
}

/// Every client leaves, an hour later.
func disconnectAll(_ clients: [ClientID], from hub: inout Hub) {
    for client in clients {
        checkOutputs(hub.apply(.disconnected(client), at: .seconds(3600)))
    }
}

func checkOutputs(_ outputs: [RoomOutput]) {
    for output in outputs {
        switch output {
        case let .send(message, _), let .broadcast(message, _, _):
            checkRoundTrip(message)
        case .log, .persist:
            break
        }
    }
}

/// Traps (a finding) when a server message does not survive the wire.
func checkRoundTrip(_ message: ServerMessage) {
    let encoded = fuzzCodec.encode(message)
    guard let decoded = try? fuzzCodec.decodeServer(encoded) else {
        fatalError("the server sent JSON it cannot read back: \(String(decoding: encoded, as: UTF8.self))")
    }
    if decoded != message {
        fatalError("a server message changed on the wire: \(message) became \(decoded)")
    }
}

/// The seed sessions scripts/fuzz.sh wrote from docs/PROTOCOL.md, when it
/// asks a target for seeds (`NEON_FUZZ_SESSIONS`).
func seedSessions() -> [[UInt8]] {
    guard let directory = ProcessInfo.processInfo.environment["NEON_FUZZ_SESSIONS"],
          let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    return names.sorted().compactMap { FileManager.default.contents(atPath: directory + "/" + $0).map(Array.init) }
}

/// When scripts/fuzz.sh asks for seeds (`NEON_FUZZ_SEEDS` names the
/// corpus directory), `make` writes them there and the process ends
/// before fuzzing; otherwise nothing happens.
func writeSeedsIfAsked(_ make: () -> [[UInt8]]) {
    guard let directory = ProcessInfo.processInfo.environment["NEON_FUZZ_SEEDS"] else { return }
    let seeds = make()
    for (index, seed) in seeds.enumerated() {
        FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: Data(seed))
    }
    print("\(seeds.count) seeds written to \(directory)")
    exit(0)
}
