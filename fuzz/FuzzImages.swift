// A libFuzzer target over a room's image as a cluster node reads it back
// from Redis (the snapshot key): JSONDecoder into NeonCore's RoomImage, as
// ClusterDelivery.gatewayEvent decodes it, then the room it rebuilds.
// Built and run by scripts/fuzz.sh with NeonCore and fuzz/FuzzSession.swift.
//
// The input's first line is the image's JSON; the lines after it are a
// session (see FuzzSession.swift) from the image's first two members and a
// newcomer, applied to the hub after it adopted the room. Checks: a decoded
// image encodes to JSON that decodes equal; the room it rebuilds gives an
// image that rebuilds the same room again; the hub applies every event
// (and the answers survive the wire).

import Foundation

func fuzzImages(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    guard let image = try? JSONDecoder().decode(RoomImage.self, from: Data(bytes[..<newline])) else { return }
    guard let encoded = try? JSONEncoder().encode(image) else {
        fatalError("a decoded room image does not encode: \(image)")
    }
    guard let again = try? JSONDecoder().decode(RoomImage.self, from: encoded), again == image else {
        fatalError("a room image changed through JSON: \(String(decoding: encoded, as: UTF8.self))")
    }
    let rebuilt = RoomState(image: image).image
    if RoomState(image: rebuilt).image != rebuilt {
        fatalError("a rebuilt room does not rebuild equal: \(rebuilt)")
    }
    var hub = Hub(limits: RoomLimits(), maxRooms: 16)
    hub.adopt(image.name, image: image)
    let clients = image.members.prefix(2).map(\.id) + [ClientID("c9")]
    if newline < bytes.endIndex {
        replaySession(bytes[(newline + 1)...], clients: clients, into: &hub)
    }
    disconnectAll(clients + image.members.map(\.id), from: &hub)
}

/// Images the code itself makes: every room of each seed session, taken
/// while its members are in and again after they left, each followed by
/// the session that made it.
func imageSeeds() -> [[UInt8]] {
    let clients = [ClientID("c1"), ClientID("c2"), ClientID("c3")]
    let encoder = JSONEncoder()
    var seeds: [[UInt8]] = []
    for session in seedSessions() {
        var hub = Hub(limits: RoomLimits(), maxRooms: 16)
        replaySession(session, clients: clients, into: &hub)
        for state in hub.rooms.values {
            seeds.append(Array(try! encoder.encode(state.image)) + [0x0A] + session)
        }
        disconnectAll(clients, from: &hub)
        for state in hub.rooms.values {
            seeds.append(Array(try! encoder.encode(state.image)) + [0x0A] + session)
        }
    }
    return seeds
}
