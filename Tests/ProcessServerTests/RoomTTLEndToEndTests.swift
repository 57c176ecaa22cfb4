import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("Rooms that expire, and neonsync rooms", .serialized, .ownThreads)
struct RoomTTLEndToEndTests {
    @Test("with --room-ttl a room left empty is removed once idle that long (room_expired), and stays gone after a restart; one with people stays")
    func emptyRoomsExpire() async throws {
        let directory = try TemporaryDirectory()
        let server = try ServerProcess(["--data", directory.path, "--room-ttl", "1s"])
        let typo = try await TestPeer.connect(server)
        _ = try await typo.hello(room: "tpyo", name: "ada", role: .reader)
        typo.send(.document(title: "Notes", format: .text, text: "kept until the ttl\n"))
        _ = try await typo.next("document")
        let kept = try await TestPeer.connect(server)
        _ = try await kept.hello(room: "kept", name: "bob", role: .reader)
        kept.send(.document(title: "Kept", format: .text, text: "kept\n"))
        _ = try await kept.next("document")
        typo.close()
        let expired = await server.log(timeout: 10) { $0["event"] as? String == "room_expired" }
        #expect(expired?["room"] as? String == "tpyo")
        #expect(expired?["ttlSeconds"] as? Int == 1)
        #expect(!server.events("room_expired").contains { $0["room"] as? String == "kept" })
        for line in server.logLines where line.contains("room_expired") {
            #expect(LogSchema.problems(of: line).isEmpty, "\(LogSchema.problems(of: line))")
        }
        kept.close()
        #expect(server.stop() == 0)

        let again = try ServerProcess(["--data", directory.path, "--room-ttl", "0"])
        let start = try #require(again.events("start").first)
        #expect(start["restoredRooms"] as? Int == 1, "only \"kept\" came back")
    }

    @Test("neonsync rooms lists the rooms with people reading and watching, the presenter, the document and when someone last came or went; a room left with nothing in it is gone (room_dropped)")
    func roomsCommand() async throws {
        let server = try ServerProcess()
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "guide", name: "ada", role: .presenter)
        ada.send(.document(title: "Field Guide", format: .text, text: "one\ntwo\n"))
        _ = try await ada.next("document")
        let bob = try await TestPeer.connect(server)
        _ = try await bob.hello(room: "guide", name: "bob", role: .reader)
        let cy = try await TestPeer.connect(server)
        _ = try await cy.hello(room: "guide", name: "cy", role: .observer)
        let quiet = try await TestPeer.connect(server)
        _ = try await quiet.hello(room: "quiet", name: "dee", role: .reader)
        quiet.close()
        let dropped = await server.log(timeout: 30) { $0["event"] as? String == "room_dropped" }
        #expect(dropped?["room"] as? String == "quiet")
        for line in server.logLines where line.contains("room_dropped") {
            #expect(LogSchema.problems(of: line).isEmpty, "\(LogSchema.problems(of: line))")
        }

        let listed = try runClient(["rooms", "--server", server.url])
        #expect(listed.status == 0, "\(listed.err)")
        let lines = listed.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.first == "ROOM READING WATCHING PRESENTER DOCUMENT LAST ACTIVE")
        #expect(lines.contains("guide 2 1 ada Field Guide just now"), "\(listed.out)")
        #expect(!lines.contains { $0.hasPrefix("quiet ") }, "\(listed.out)")

        let json = try runClient(["rooms", "--server", server.url, "--json"])
        let object = try #require(ServerProcess.json(json.out.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect((object["rooms"] as? [[String: Any]])?.count == 1)

        let nobody = try runClient(["rooms", "--server", "ws://127.0.0.1:1/"])
        #expect(nobody.status == 4 && nobody.err.contains("no server answered"), "\(nobody.err)")
        let bad = try runClient(["rooms", "--frobnicate"])
        #expect(bad.status == 2 && bad.err.contains("see neonsync rooms --help"))
    }

    @Test("--room-ttl takes a duration or 0, on one node as on a cluster node (where a bad one is refused with exit 2 before Redis is tried)")
    func flag() throws {
        let bad = try runDaemon(["--room-ttl", "soon"])
        #expect(bad.status == 2 && bad.err.contains("--room-ttl soon is not a duration"))
        let clusterBad = try runDaemon(["--room-ttl", "soon", "--redis", "redis://127.0.0.1:1"])
        #expect(clusterBad.status == 2 && clusterBad.err.contains("--room-ttl soon is not a duration"))
        let cluster = try runDaemon(["--room-ttl", "1d", "--redis", "redis://127.0.0.1:1"])
        #expect(cluster.status == 1 && cluster.err.contains("redis://127.0.0.1:1"), "accepted, then Redis was tried: \(cluster.err)")
    }
}
