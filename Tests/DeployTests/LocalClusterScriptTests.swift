import Foundation
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// deploy/cluster/run-local.sh (with deploy/cluster/redis.sh, which it sources), run as a user would, then Ctrl-C.
@Suite("deploy/cluster/run-local.sh", .serialized, .ownThreads)
struct LocalClusterScriptTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/cluster/run-local.sh")

    /// Every process below `pid` now, with its command line.
    static func descendants(of pid: Int32) -> [Int32: String] {
        var parents: [Int32: Int32] = [:]
        var commands: [Int32: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            parents[child] = parent
            let raw = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline"))) ?? Data()
            commands[child] = String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }
        var found: [Int32: String] = [:]
        var frontier = [pid]
        while let next = frontier.popLast() {
            for (child, parent) in parents where parent == next && found[child] == nil {
                found[child] = commands[child] ?? ""
                frontier.append(child)
            }
        }
        return found
    }

    /// Whether `pid` runs (a zombie does not).
    static func running(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    @Test("run-local.sh 2 starts Redis, two nodes and nginx in one command and prints how to join; neonsync joins through it and readers on both nodes follow one presenter; Ctrl-C stops everything it started and removes its directory")
    func oneCommand() async throws {
        let port = try RedisProcess.freePort()
        // SIGINT as a terminal leaves it: a test runner started in the
        // background may hand its children SIGINT ignored, which bash then
        // cannot trap.
        let script = try RunningProgram(URL(fileURLWithPath: "/usr/bin/env"), ["--default-signal=INT", "bash", Self.script.path, "2"],
                                        environment: ["NEONSYNC_PORT": "\(port)", "NEONSYNCD": ServerProcess.binary.path])
        let printed = try #require(await script.line(timeout: .seconds(60)) { $0.hasPrefix("neonsync join ROOM --server ") },
                                   "run-local.sh said: \(script.errorLines.joined(separator: "\n"))")
        let words = printed.split(separator: " ").map(String.init)
        let url = try #require(words.firstIndex(of: "--server").map { words[$0 + 1] })
        let ca = try #require(words.firstIndex(of: "--ca").map { words[$0 + 1] })
        #expect(url == "wss://localhost:\(port)/")
        let directory = URL(fileURLWithPath: ca).deletingLastPathComponent().deletingLastPathComponent().path
        #expect(directory.hasPrefix(NSTemporaryDirectory()) || directory.hasPrefix("/tmp/"))

        // nginx's master listens (the script waits for that) before it
        // forks its worker: wait, bounded, for the worker too.
        var started = Self.descendants(of: script.pid)
        let workerBy = Date().addingTimeInterval(10)
        while !started.values.contains(where: { $0.hasPrefix("nginx: worker process") }), Date() < workerBy {
            try await Task.sleep(for: .milliseconds(20))
            started = Self.descendants(of: script.pid)
        }
        defer {
            for pid in started.keys where Self.running(pid) { kill(pid, SIGKILL) }
        }
        #expect(started.values.filter { $0.hasPrefix("redis-server") }.count == 1, "\(started)")
        #expect(started.values.filter { $0.hasPrefix(ServerProcess.binary.path) && $0.contains("--redis") }.count == 2)
        #expect(started.values.contains { $0.hasPrefix("nginx: master process") && $0.contains(directory) })
        #expect(started.values.contains { $0.hasPrefix("nginx: worker process") })

        let (presenter, ada) = try await startPresenter(url: url, ca: ca, room: "local") {
            ["node-1.err", "node-1.jsonl", "node-2.err", "node-2.jsonl", "nginx/error.log", "nginx/neonsync.error.log", "nginx/neonsync.access.log"].map { name in
                let text = (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? "(none)"
                return "\(name):\n" + text.split(separator: "\n").suffix(15).joined(separator: "\n")
            }.joined(separator: "\n")
        }
        let tails = try (1...2).map { try startTail(url: url, ca: ca, room: "local", name: "t\($0)") }
        for tail in tails {
            #expect(await follows(tail, ada), "\(tail.errorLines)")
        }
        // The tails name the room in their URL: nginx sends both to the node
        // "local" hashes to (the presenter's Python client names none).
        let joined = (1...2).map { node in
            let log = (try? String(contentsOfFile: "\(directory)/node-\(node).jsonl", encoding: .utf8)) ?? ""
            return Set(["t1", "t2"].filter { log.contains(#""event":"join""#) && log.contains(#""name":"\#($0)""#) })
        }
        #expect(joined.contains(["t1", "t2"]) && joined.contains([]), "the room's two tails meet on one node: \(joined)")
        for tail in tails { #expect(await tail.stop() == 0) }
        _ = await presenter.stop()

        #expect(await script.stop(signal: SIGINT, timeout: .seconds(30)) == 130)
        #expect(script.errorLines.last == "run-local: stopped everything and removed \(directory)")
        for (pid, command) in started {
            #expect(!Self.running(pid), "still running after run-local.sh ended: \(pid) \(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test("run-local.sh --sentinel 2: a master, a replica and three Sentinels, the nodes on their sentinel:// address; kill -9 of the master it names: the script says so, 'status' shows the replica promoted, 'restart redis-1' brings the old master back as its replica, a presenter and its tails meet through nginx again without a node restarted; Ctrl-C stops everything")
    func sentinelFailover() async throws {
        let port = try RedisProcess.freePort()
        let tmux = try Tmux()
        try tmux.start("sentinel", columns: 400, rows: 100, command: "bash \(Tmux.quote(Self.script.path)) --sentinel 2",
                       environment: ["NEONSYNC_PORT": "\(port)", "NEONSYNCD": ServerProcess.binary.path])
        let screen = try tmux.waitUntil("sentinel", timeout: 90, "the join line") {
            $0.joined(separator: "\n").contains("neonsync join ROOM --server") || $0.joined(separator: "\n").contains("run-local: stopped everything")
        }.joined(separator: "\n")
        try #require(screen.contains("neonsync join ROOM --server"), "run-local.sh ended: \(screen)")
        let ca = try #require(screen.firstMatch(of: /--ca (\S+)/).map { String($0.output.1) })
        let directory = URL(fileURLWithPath: ca).deletingLastPathComponent().deletingLastPathComponent().path
        let group = try #require(screen.firstMatch(of: /Redis at (sentinel:\/\/127\.0\.0\.1:(\d+),127\.0\.0\.1:(\d+),127\.0\.0\.1:(\d+)\/neonsync1),/))
        let sentinels = [group.output.2, group.output.3, group.output.4].compactMap { Int($0) }
        let redis = try #require(screen.firstMatch(of: /master redis-1 on port (\d+) \(pid (\d+)\), its replica redis-2 on port (\d+) \(pid (\d+)\)/))
        let masterPort = try #require(Int(redis.output.1)), masterPid = try #require(Int32(redis.output.2))
        let replicaPort = try #require(Int(redis.output.3)), replicaPid = try #require(Int32(redis.output.4))
        #expect(screen.contains("kill -9 \(masterPid) (the master)"))
        for node in 1...2 {
            let pid = try #require(Self.process(containing: "\(directory)/node-\(node).jsonl"))
            let raw = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
            #expect(String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains("--redis \(group.output.1) "))
        }
        #expect(try RESPReply.call(port: masterPort, ["ROLE"]).texts.first == "master")
        #expect(try RESPReply.call(port: replicaPort, ["ROLE"]).texts.prefix(4) == ["slave", "127.0.0.1", "\(masterPort)", "connected"])
        for sentinel in sentinels {
            #expect(try RESPReply.call(port: sentinel, ["SENTINEL", "get-master-addr-by-name", "neonsync1"]).texts == ["127.0.0.1", "\(masterPort)"])
            #expect(try RESPReply.call(port: sentinel, ["SENTINEL", "master", "neonsync1"]).fields["num-other-sentinels"] == "2")
        }

        let url = "wss://localhost:\(port)/"
        func meet(_ room: String) async throws -> RunningProgram {
            let (presenter, ada) = try await startPresenter(url: url, ca: ca, room: room) {
                ["node-1.err", "node-2.err", "nginx/neonsync.error.log", "sentinel-1/sentinel.log"].map { name in
                    let text = (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? "(none)"
                    return "\(name):\n" + text.split(separator: "\n").suffix(15).joined(separator: "\n")
                }.joined(separator: "\n")
            }
            let tail = try startTail(url: url, ca: ca, room: room, name: "t-\(room)")
            #expect(await follows(tail, ada), "\(room): \(tail.errorLines)")
            #expect(await tail.stop() == 0)
            return presenter
        }
        let before = try await meet("before")

        kill(masterPid, SIGKILL)
        try tmux.waitFor("sentinel", "run-local: redis-1 (port \(masterPort)) stopped; if it was the master the Sentinels promote its replica", timeout: 10)
        // The Sentinels promote the replica within seconds: 'status' says so,
        // and that each of them names it master.
        let promoted = "run-local: redis-2 on port \(replicaPort) (pid \(replicaPid)): master"
        let named = sentinels.map { "on port \($0) (pid " }
        func promotedEverywhere(_ screen: String) -> Bool {
            guard let last = screen.range(of: promoted, options: .backwards) else { return false }
            let rest = screen[last.upperBound...].split(separator: "\n").prefix(4)
            return named.allSatisfy { port in rest.contains { $0.contains(port) && $0.hasSuffix("names port \(replicaPort) master") } }
        }
        let deadline = Date().addingTimeInterval(30)
        var roles = ""
        while !promotedEverywhere(roles), Date() < deadline {
            try tmux.sendLiteral("sentinel", "status")
            try tmux.sendKeys("sentinel", "Enter")
            try await Task.sleep(for: .seconds(1))
            roles = try tmux.capture("sentinel").joined(separator: "\n")
        }
        #expect(promotedEverywhere(roles), "\(roles)")
        #expect(roles.contains("run-local: redis-1 on port \(masterPort): stopped"))
        #expect(try RESPReply.call(port: replicaPort, ["ROLE"]).texts.first == "master")

        try tmux.sendLiteral("sentinel", "restart redis-1")
        try tmux.sendKeys("sentinel", "Enter")
        try tmux.waitFor("sentinel", "as a replica of port \(replicaPort)", timeout: 20)
        #expect(await eventually(timeout: .seconds(20)) {
            (try? RESPReply.call(port: masterPort, ["ROLE"]).texts.prefix(4)) == ["slave", "127.0.0.1", "\(replicaPort)", "connected"]
        })
        _ = await before.stop()
        let after = try await meet("after")
        _ = await after.stop()

        try tmux.sendKeys("sentinel", "C-c")
        try tmux.waitFor("sentinel", "run-local: stopped everything and removed \(directory)", timeout: 60)
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(Self.process(containing: directory) == nil)
        for redisPort in [masterPort, replicaPort] + sentinels {
            #expect((try? RESPReply.call(port: redisPort, ["PING"])) == nil, "nothing answers on port \(redisPort) after Ctrl-C")
        }
    }

    /// The pid of the running process whose command line contains `text`.
    static func process(containing text: String) -> Int32? {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), running(pid),
                  let raw = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")) else { continue }
            if String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(text) { return pid }
        }
        return nil
    }

    @Test("kill -9 of one node in a terminal running run-local.sh 2: the script says so and keeps the rest, the clients of its room fail over through nginx to the other, together, 'restart N' typed into the script starts the node again on its port, Ctrl-C still stops everything")
    func nodeFailure() async throws {
        let port = try RedisProcess.freePort()
        let tmux = try Tmux()
        try tmux.start("cluster", columns: 220, rows: 50, command: "bash \(Tmux.quote(Self.script.path)) 2",
                       environment: ["NEONSYNC_PORT": "\(port)", "NEONSYNCD": ServerProcess.binary.path])
        let screen = try tmux.waitFor("cluster", "neonsync join ROOM --server", timeout: 60)
        let words = screen.joined(separator: " ").split(separator: " ").map(String.init)
        let ca = try #require(words.firstIndex(of: "--ca").map { words[$0 + 1] })
        let directory = URL(fileURLWithPath: ca).deletingLastPathComponent().deletingLastPathComponent().path
        let ports = try #require(words.firstIndex(of: "ports").map { [Int(words[$0 + 1]), Int(words[$0 + 2])] }).compactMap { $0 }
        #expect(ports.count == 2)
        let url = "wss://localhost:\(port)/"

        let tails = try (1...2).map { try startTail(url: url, ca: ca, room: "failover", name: "t\($0)") }
        func joins(of name: String, on node: Int) -> Int {
            let log = (try? String(contentsOfFile: "\(directory)/node-\(node).jsonl", encoding: .utf8)) ?? ""
            return log.split(separator: "\n").filter { $0.contains(#""event":"join""#) && $0.contains(#""name":"\#(name)""#) }.count
        }
        func node(of name: String) -> Int? { (1...2).first { joins(of: name, on: $0) > 0 } }
        func welcomes(_ tail: RunningProgram) -> Int { tail.lines.filter { $0.contains(#""type":"welcome""#) }.count }
        for tail in tails {
            #expect(await tail.line(timeout: .seconds(20)) { $0.contains(#""type":"welcome""#) } != nil, "\(tail.errorLines)")
        }
        let victim = try #require(node(of: "t1"))
        let survivor = 3 - victim
        #expect(node(of: "t2") == victim, "the room's tails meet on the node nginx hashes its name to")
        let pid = try #require(Self.process(containing: "\(directory)/node-\(victim).jsonl"))
        kill(pid, SIGKILL)

        try tmux.waitFor("cluster", "run-local: node local-\(victim) stopped by itself; 1 other node(s) keep serving through nginx; type 'restart \(victim)' and Enter to start it again", timeout: 20)
        #expect(try tmux.exitStatus("cluster") == nil)
        for (tail, name) in zip(tails, ["t1", "t2"]) {
            #expect(await tail.line(timeout: .seconds(30)) { _ in welcomes(tail) == 2 } != nil, "\(name) fails over: \(tail.errorLines)")
            #expect(joins(of: name, on: survivor) == 1, "the dead node's room moves, whole, to the other node")
        }

        try tmux.sendLiteral("cluster", "restart \(victim)")
        try tmux.sendKeys("cluster", "Enter")
        try tmux.waitFor("cluster", "run-local: node local-\(victim) started again on port \(ports[victim - 1])", timeout: 30)
        #expect(try httpGet(port: ports[victim - 1], path: "/healthz").hasSuffix("ok\n"))
        try tmux.sendLiteral("cluster", "restart \(victim)")
        try tmux.sendKeys("cluster", "Enter")
        try tmux.waitFor("cluster", "run-local: node local-\(victim) is running (pid ", timeout: 10)

        for tail in tails { #expect(await tail.stop() == 0) }
        try tmux.sendKeys("cluster", "C-c")
        try tmux.waitFor("cluster", "run-local: stopped everything and removed \(directory)", timeout: 60)
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(Self.process(containing: directory) == nil, "the nodes and nginx name the directory on their command lines; none is left")
    }

    @Test("run-local.sh refuses a bad node count and a taken port with a sentence, starting nothing")
    func refusals() async throws {
        let usage = try runProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "0"])
        #expect(usage.status == 2 && usage.err == "run-local: usage: run-local.sh [--sentinel] [NODES] (1 to 16 neonsyncd nodes, default 3; --sentinel: Redis as a master, a replica and three Sentinels)\n")
        let extra = try runProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "--sentinel", "2", "3"])
        #expect(extra.status == 2 && extra.err.hasPrefix("run-local: usage: run-local.sh [--sentinel] [NODES]"))
        let holder = try ServerProcess()
        let taken = try RunningProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "1"],
                                       environment: ["NEONSYNC_PORT": "\(holder.port)", "NEONSYNCD": ServerProcess.binary.path])
        #expect(await taken.stop(signal: 0, timeout: .seconds(10)) == 1)
        #expect(taken.errorLines.first?.hasPrefix("run-local: port \(holder.port) is taken; choose another: NEONSYNC_PORT=18443") == true)
        #expect(holder.stop() == 0)
    }
}
