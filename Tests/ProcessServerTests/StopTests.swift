import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// Stops asked for from two threads at once (SIGTERM and SIGINT sent at the
/// same instant, while the daemon's main thread waits for the stop) reach
/// the one stop of the server: one `stop` line, a clean exit, nothing lost.
@Suite("neonsyncd stops once, however many ask at once", .serialized, .ownThreads)
struct StopTests {
    @Test("SIGTERM and SIGINT at the same instant stop one node once: exit 0 within 5 s, one stop line, and the edit acked before is in the store after a restart")
    func singleNode() async throws {
        let data = try TemporaryDirectory()
        let node = try RunningProgram(ServerProcess.binary, ["--port", "0", "--log", "-", "--data", data.path])
        let ada = try await TestPeer.connect(url: try await url(of: node))
        _ = try await ada.hello(room: "twice", name: "ada", role: .presenter)
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("kept across two signals")])))
        _ = try await ada.next("ack")

        let asked = ContinuousClock.now
        signalAtOnce(node.pid, [SIGTERM, SIGINT])
        let status = await exitStatus(of: node, within: .seconds(5))
        #expect(status == 0, "\(node.errorLines)")
        #expect(asked.duration(to: .now) < .seconds(5))
        #expect(node.drained(timeout: 10))
        #expect(events("stop", of: node).count == 1, "\(node.lines)")

        let restarted = try ServerProcess(["--data", data.path])
        let carol = try await TestPeer.connect(restarted)
        let welcome = try await carol.hello(room: "twice", name: "carol", role: .reader)
        #expect(welcome.draft.text == "kept across two signals" && welcome.draft.rev == 1)
    }

    @Test("SIGTERM and SIGINT at the same instant stop a cluster node once: exit 0 within 5 s, one stop line, and it left the cluster (its name is free at once)")
    func clusterNode() async throws {
        let redis = try RedisProcess()
        let node = try RunningProgram(ServerProcess.binary, ["--port", "0", "--log", "-", "--redis", redis.url, "--node", "twice"])
        let ada = try await TestPeer.connect(url: try await url(of: node))
        _ = try await ada.hello(room: "twice", name: "ada", role: .presenter)
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("in the log")]), key: "k1"))
        _ = try await ada.next("ack")

        let asked = ContinuousClock.now
        signalAtOnce(node.pid, [SIGTERM, SIGINT])
        let status = await exitStatus(of: node, within: .seconds(5))
        #expect(status == 0, "\(node.errorLines)")
        #expect(asked.duration(to: .now) < .seconds(5))
        #expect(node.drained(timeout: 10))
        #expect(events("stop", of: node).count == 1, "\(node.lines)")
        #expect(events("redis_down", of: node).isEmpty, "\(node.lines)")
        #expect(try redis.command("EXISTS neonsync:node:twice") == ":0", "the node gave up its name as it left")
    }

    @Test("a cluster node whose Redis was killed exits 0 within 10 s of SIGTERM, logging that it stopped without leaving the cluster")
    func clusterNodeWithoutRedis() async throws {
        let redis = try RedisProcess()
        let node = try RunningProgram(ServerProcess.binary, ["--port", "0", "--log", "-", "--redis", redis.url, "--node", "orphan"])
        let ada = try await TestPeer.connect(url: try await url(of: node))
        _ = try await ada.hello(room: "orphan", name: "ada", role: .presenter)
        redis.stop()

        let asked = ContinuousClock.now
        let status = await node.stop(signal: SIGTERM, timeout: .seconds(10))
        #expect(status == 0, "\(node.errorLines)")
        #expect(asked.duration(to: .now) < .seconds(10))
        #expect(events("stop", of: node).count == 1, "\(node.lines)")
        let gone = events("redis_down", of: node).compactMap { $0["reason"] as? String }
        #expect(gone.contains { $0.hasPrefix("stopped without leaving the cluster") }, "\(node.lines)")
    }

    @Test("a cluster node whose Redis stopped answering exits 0 within 10 s of SIGTERM and SIGINT at once: the bounded stop says why, and nothing the writer still uses is freed under it")
    func clusterNodeWithRedisHung() async throws {
        let redis = try RedisProcess()
        let node = try RunningProgram(ServerProcess.binary, ["--port", "0", "--log", "-", "--redis", redis.url, "--node", "stuck"])
        let ada = try await TestPeer.connect(url: try await url(of: node))
        _ = try await ada.hello(room: "stuck", name: "ada", role: .presenter)
        kill(redis.pid, SIGSTOP)
        defer { kill(redis.pid, SIGCONT) }

        let asked = ContinuousClock.now
        signalAtOnce(node.pid, [SIGTERM, SIGINT])
        let status = await exitStatus(of: node, within: .seconds(10))
        #expect(status == 0, "\(node.errorLines)")
        #expect(asked.duration(to: .now) < .seconds(10))
        #expect(node.drained(timeout: 10))
        #expect(events("stop", of: node).count == 1, "\(node.lines)")
        let gone = events("redis_down", of: node).compactMap { $0["reason"] as? String }
        #expect(gone.contains { $0.hasPrefix("stopped without leaving the cluster") }, "\(node.lines)")
    }
}

/// The node's WebSocket URL, from its start line.
private func url(of node: RunningProgram) async throws -> String {
    let start = try #require(await node.line { $0.contains(#""event":"start""#) }, "\(node.errorLines)")
    let port = try #require(ServerProcess.json(start)?["port"] as? Int)
    return "ws://127.0.0.1:\(port)/"
}

/// The node's log records with `event` == `name`.
private func events(_ name: String, of node: RunningProgram) -> [[String: Any]] {
    node.lines.compactMap(ServerProcess.json).filter { $0["event"] as? String == name }
}

/// Sends each signal to `pid` from a thread of its own, the threads
/// released together; returns once every one is sent.
private func signalAtOnce(_ pid: Int32, _ signals: [Int32]) {
    let ready = DispatchGroup()
    let go = DispatchGroup()
    let sent = DispatchGroup()
    go.enter()
    for number in signals {
        ready.enter()
        sent.enter()
        Thread {
            ready.leave()
            go.wait()
            kill(pid, number)
            sent.leave()
        }.start()
    }
    ready.wait()
    go.leave()
    sent.wait()
}

/// The program's exit status once it has exited, waited for (without
/// holding a thread of the concurrency pool) at most `timeout`; nil when it
/// still runs then.
private func exitStatus(of program: RunningProgram, within timeout: Duration) async -> Int32? {
    let deadline = ContinuousClock.now + timeout
    while program.isRunning, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(10))
    }
    return program.terminationStatus
}
