import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("Cluster: rooms that come and go through one node", .serialized, .ownThreads)
struct ClusterChurnTests {
    /// The node's resident memory, KiB.
    private func residentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]))
    }

    /// Runs two `neonsync bench churn` at once (the load generator is one
    /// thread; two use both cores), `rooms` in all, to their end
    /// (bounded); the rooms welcomed and the failures, summed.
    private func churn(_ node: ServerProcess, rooms: Int, prefix: String) throws -> (welcomed: Int, failures: Int) {
        let binary = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync")
        let benches = try (0..<2).map { half in
            try RunningProgram(binary, ["bench", "churn", "--server", node.url, "--rooms", String(rooms / 2), "--ramp", "128",
                                        "--room", "\(prefix)\(half)"])
        }
        let deadline = Date().addingTimeInterval(600)
        while benches.contains(where: \.isRunning), Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        var total = (welcomed: 0, failures: 0)
        for bench in benches {
            #expect(!bench.isRunning, "the churn of \(rooms / 2) rooms ended within 10 minutes")
            _ = bench.drained()
            #expect(bench.terminationStatus == 0, """
                \(bench.errorLines.suffix(3)); the node said: \(node.logLines.filter { !$0.contains(#""level":"info""#) && !$0.contains(#""level":"debug""#) }.prefix(5))
                """)
            let figures = bench.lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any] ?? [:]
            total.welcomed += figures["welcomed"] as? Int ?? 0
            total.failures += figures["failures"] as? Int ?? 0
        }
        return total
    }

    /// The node holds no room, Redis has none of its subscriptions, and
    /// its incarnation is in no room: waits (bounded) for all three.
    private func letGo(_ node: ServerProcess, _ redis: RedisProcess) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let metrics = try httpRequest(port: node.port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").body
            let rooms = metrics.split(separator: "\n").first { $0.hasPrefix("neonsync_rooms ") }
            let channels = try redis.cli(["EVAL", "return #redis.call('PUBSUB', 'CHANNELS', 'neonsync:*')", "0"])
            let held = try redis.cli(["SCARD", "neonsync:gen:1:rooms"])
            if rooms == "neonsync_rooms 0", channels == "0", held == "0" { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    @Test("100,000 rooms, each joined by one reader who leaves once welcomed (neonsync bench churn), go through one cluster node with --room-release 1s: afterwards it holds no room (neonsync_rooms 0), Redis has no subscription of it, its incarnation is in no room, and its RSS is back within 8 MiB of what it was after the first 10,000")
    func hundredThousandRooms() async throws {
        let redis = try RedisProcess()
        let node = try clusterNode(redis, "a", ["--room-release", "1s", "--max-rooms", "1000000",
                                                "--max-new-rooms-per-ip", "0"])
        let warm = try churn(node, rooms: 10_000, prefix: "warm")
        #expect(warm.welcomed == 10_000 && warm.failures == 0, "\(warm)")
        #expect(try await letGo(node, redis), "the first 10,000 rooms were let go")
        let baseline = try residentKiB(node.pid)

        let rest = try churn(node, rooms: 90_000, prefix: "churn")
        #expect(rest.welcomed == 90_000 && rest.failures == 0, "\(rest)")
        #expect(try await letGo(node, redis), "the other 90,000 rooms were let go")
        let after = try residentKiB(node.pid)
        #expect(after <= baseline + 8 * 1024, "RSS \(baseline) KiB after 10,000 rooms, \(after) KiB after 100,000")
        let lines = node.logLines
        #expect(lines.filter { $0.contains(#""event":"room_released""#) }.count == 100_000)
        #expect(!lines.contains { $0.contains(#""level":"error""#) || $0.contains(#""level":"warn""#) },
                "\(lines.first { $0.contains(#""level":"error""#) || $0.contains(#""level":"warn""#) } ?? "")")

        // Released, not gone: the node takes a room up again for its next hello.
        let again = try await TestPeer.connect(url: node.url)
        let welcome = try await again.hello(room: "churn0-7", name: "ada", role: .reader)
        #expect(welcome.readers.map(\.name) == ["ada"])
    }
}
