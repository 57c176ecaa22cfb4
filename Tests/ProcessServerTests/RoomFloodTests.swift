import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// Nobody can fill the server (issue 24): one address that joins new room
/// names at full speed is refused past --max-new-rooms-per-ip, one that
/// holds rooms open is refused past --max-rooms-per-ip, a person from
/// another address is served throughout, and the flood's rooms are gone
/// when it ends. Against the real neonsyncd with its default limits.
@Suite("A room flood from one address", .serialized, .ownThreads)
struct RoomFloodTests {
    /// Joins `room` over a raw socket from `source` and returns the first
    /// answer's type and error code (the socket stays open while the
    /// caller holds it).
    static func hello(_ port: Int, room: String, from source: String) throws -> (RawWebSocket, String, String?) {
        let socket = try RawWebSocket(port: port, from: source, headers: [])
        try socket.send(text: #"{"type":"hello","room":"\#(room)","name":"f","role":"reader"}"#)
        let frame = try socket.receive()
        let message = try WireCodec().decodeServer(frame.payload)
        if case let .error(error) = message.payload { return (socket, message.type, error.code.rawValue) }
        return (socket, message.type, nil)
    }

    @Test("joining and leaving new rooms at full speed: past 60 a minute they are refused too_many_rooms, logged once; another address is served; no flood room is left")
    func joinAndLeave() throws {
        let server = try ServerProcess(["--max-rooms", "500"])
        var welcomed = 0, refused = 0, other = 0
        let started = Date()
        // 15 s, or until the flood outruns the refill (one a second): on a
        // loaded machine a hello can take longer than that (60 s at most).
        let deadline = started.addingTimeInterval(15), limit = started.addingTimeInterval(60)
        var attempt = 0
        while attempt < 1_000, Date() < deadline || (refused == 0 && Date() < limit) {
            attempt += 1
            let (socket, type, code) = try Self.hello(server.port, room: "flood-\(attempt)", from: "127.0.0.1")
            if type == "welcome" { welcomed += 1 } else if code == "too_many_rooms" { refused += 1 } else { other += 1 }
            socket.socket.shutdown()
        }
        let seconds = Date().timeIntervalSince(started)
        print("room flood: \(attempt) attempts in \(seconds) s, \(welcomed) welcomed, \(refused) too_many_rooms, \(other) other")
        // A burst of 60, then one a second as the bucket refills.
        #expect(welcomed >= 60 && Double(welcomed) <= 61 + seconds, "\(welcomed) rooms in \(seconds) s")
        #expect(refused == attempt - welcomed && other == 0)
        let (person, type, _) = try Self.hello(server.port, room: "talk", from: "127.0.0.2")
        #expect(type == "welcome", "another address still gets its room")
        let lines = server.events("error").filter { $0["code"] as? String == "too_many_rooms" }
        // A burst ends when a refilled token lets a room through: one line
        // for the first burst and at most one for each room let through since.
        #expect(lines.count >= 1 && lines.count <= 1 + (welcomed - 60), "\(lines.count) lines for \(refused) refusals")
        let empty = ContinuousClock.now + .seconds(15)
        var rooms = try metric("neonsync_rooms", port: server.port)
        while rooms != 1, ContinuousClock.now < empty {
            Thread.sleep(forTimeInterval: 0.05)
            rooms = try metric("neonsync_rooms", port: server.port)
        }
        #expect(rooms == 1, "only the person's room is left")
        withExtendedLifetime(person) {}
        #expect(server.stop() == 0)
    }

    @Test("holding rooms open from one address stops at --max-rooms-per-ip, so the address cannot fill --max-rooms; another address is served")
    func holdingRooms() throws {
        let server = try ServerProcess(["--max-rooms", "40", "--max-rooms-per-ip", "10", "--max-connections-per-ip", "0"])
        var held: [RawWebSocket] = []
        var codes: [String?] = []
        for n in 1...30 {
            let (socket, type, code) = try Self.hello(server.port, room: "hold-\(n)", from: "127.0.0.1")
            if type == "welcome" { held.append(socket) } else { codes.append(code) }
        }
        #expect(held.count == 10)
        #expect(codes == Array(repeating: "too_many_rooms", count: 20))
        #expect(try metric("neonsync_rooms", port: server.port) == 10)
        let (person, type, _) = try Self.hello(server.port, room: "talk", from: "127.0.0.2")
        #expect(type == "welcome")
        withExtendedLifetime((held, person)) {}
        #expect(server.stop() == 0)
    }

    @Test("--max-rooms-per-ip at or above --max-rooms is refused with a sentence (exit 2)")
    func perAddressBelowTheCap() throws {
        let run = try runDaemon(["--port", "0", "--max-rooms", "10", "--max-rooms-per-ip", "10"])
        #expect(run.status == 2)
        #expect(run.err == "neonsyncd: --max-rooms-per-ip 10 would let one address fill all 10 rooms (--max-rooms); give it a number below --max-rooms, or 0 for no limit\n")
    }
}
