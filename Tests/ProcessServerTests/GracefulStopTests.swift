import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import NeonTransportCore
import Testing

@Suite("neonsyncd stops gracefully on SIGTERM", .serialized, .ownThreads)
struct GracefulStopTests {
    @Test("with a stalled reader connected, SIGTERM closes the others with 1001 and exits 0 within 2 s; the draft is kept")
    func sigtermWithStalledReader() async throws {
        let directory = try TemporaryDirectory()
        let server = try ServerProcess(["--data", directory.path])
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "stop", name: "ada", role: .presenter)
        let bob = try await TestPeer.connect(server)
        _ = try await bob.hello(room: "stop", name: "bob", role: .reader)
        let sloth = try stalledReader(server, room: "stop")
        _ = try await ada.next("joined", timeout: .seconds(20))
        // Back the stalled reader up: 6 MiB of documents against at most
        // 4 MiB of kernel buffers, under the 8 MiB --max-outbound default.
        try await publishBulk(6, from: ada)
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("kept across the stop")])))
        _ = try await ada.next("ack")

        let started = ContinuousClock.now
        let status = server.stop(signal: SIGTERM, timeout: 10)
        let elapsed = started.duration(to: .now)
        print("SIGTERM with a stalled reader: exited \(status.map(String.init) ?? "no") after \(elapsed)")
        #expect(status == 0)
        #expect(elapsed < .seconds(2))
        #expect(try await bob.client.waitForClose().code == CloseCode.goingAway)
        #expect(server.events("stop").first?["reason"] as? String == "SIGTERM")
        withExtendedLifetime(sloth) {}

        let restarted = try ServerProcess(["--data", directory.path])
        let carol = try await TestPeer.connect(restarted)
        let welcome = try await carol.hello(room: "stop", name: "carol", role: .reader)
        #expect(welcome.draft.text == "kept across the stop" && welcome.draft.rev == 1)
        #expect(welcome.document?.title == "v6")
    }

    @Test("while a stalled reader holds the stop open, new WebSocket connections are refused")
    func stopsAccepting() async throws {
        let server = try ServerProcess()
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "stop", name: "ada", role: .presenter)
        let sloth = try stalledReader(server, room: "stop")
        _ = try await ada.next("joined", timeout: .seconds(20))
        try await publishBulk(6, from: ada)
        #expect(throws: Never.self, "upgrades work before the stop") { _ = try RawWebSocket(port: server.port) }
        server.signal(SIGTERM)
        _ = await server.log { $0["event"] as? String == "stop" }
        // The listener closes right after the stop line: wait for that.
        var refused = false
        let deadline = ContinuousClock.now + .seconds(3)
        while !refused, ContinuousClock.now < deadline {
            do { _ = try RawWebSocket(port: server.port) } catch is RawSocket.Failure { refused = true }
            if !refused { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(refused, "upgrades are refused once the stop began")
        #expect(server.stop(signal: SIGTERM) == 0)
        withExtendedLifetime(sloth) {}
    }

    @Test("every thread of a node, one node or a cluster node, blocks SIGINT, SIGTERM and SIGHUP but the one thread waiting for them in sigwait: no signal can land where it is ignored or kills")
    func signalsWaitForTheirThread() throws {
        let redis = try RedisProcess()
        for flags in [[String](), ["--redis", redis.url, "--node", "masks"]] {
            let server = try ServerProcess(flags)
            let stopSignals: UInt64 = 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1) | 1 << (UInt64(SIGHUP) - 1)
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task")
            var waiting = 0
            for task in tasks {
                let status = try String(contentsOfFile: "/proc/\(server.pid)/task/\(task)/status", encoding: .utf8)
                let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
                let blocked = try #require(UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16))
                let syscall = try String(contentsOfFile: "/proc/\(server.pid)/task/\(task)/syscall", encoding: .utf8)
                if syscall.hasPrefix("128 ") {
                    waiting += 1 // rt_sigtimedwait: the kernel unblocks the set while it waits
                } else {
                    #expect(blocked & stopSignals == stopSignals, "thread \(task) \(flags): SigBlk \(line)")
                }
            }
            #expect(waiting == 1, "one thread waits for the signals (\(tasks.count) threads)")
            #expect(server.stop(signal: SIGTERM) == 0)
        }
    }

    @Test("started with SIGINT and SIGHUP ignored (a shell's background job, nohup), SIGHUP still reopens the log and SIGINT still stops the node gracefully")
    func ignoredSignalsStillServe() async throws {
        let directory = try TemporaryDirectory()
        let log = directory.file("neonsyncd.jsonl")
        let node = try RunningProgram(URL(fileURLWithPath: "/bin/sh"),
                                      ["-c", #"trap '' INT HUP; exec "$0" "$@""#, ServerProcess.binary.path,
                                       "--port", "0", "--log", log, "--data", directory.file("data")])
        _ = try #require(await node.errorLine(timeout: .seconds(30)) { $0.contains("listening on") })
        let status = try String(contentsOfFile: "/proc/\(node.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") })
        let ignored = try #require(UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        #expect(ignored & (1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGHUP) - 1)) == 0, "no longer ignored: \(line)")
        try FileManager.default.moveItem(atPath: log, toPath: log + ".1")
        kill(node.pid, SIGHUP)
        #expect(await eventually { (try? String(contentsOfFile: log, encoding: .utf8))?.contains(#""event":"log_reopened""#) == true })
        kill(node.pid, SIGINT)
        #expect(await node.stop(signal: 0, timeout: .seconds(20)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains(#""reason":"SIGINT""#))
    }

    @Test("SIGTERM as soon as the start line is out stops a node gracefully (exit 0, a stop line), never kills it: one node and a cluster node, 10 times each")
    func stopRightAfterStart() async throws {
        let redis = try RedisProcess()
        for cluster in [false, true] {
            for attempt in 1...10 {
                let data = try TemporaryDirectory()
                let flags = ["--port", "0", "--log", "-"]
                    + (cluster ? ["--redis", redis.url, "--node", "n\(attempt)"] : ["--data", data.path])
                let node = try RunningProgram(ServerProcess.binary, flags)
                _ = try #require(await node.line { $0.contains(#""event":"start""#) }, "\(node.errorLines)")
                let status = await node.stop(signal: SIGTERM)
                #expect(status == 0, "attempt \(attempt)\(cluster ? " (cluster)" : ""): \(node.errorLines)")
                #expect(await node.line(timeout: .seconds(1)) { $0.contains(#""event":"stop""#) && $0.contains("SIGTERM") } != nil)
            }
        }
    }
}
