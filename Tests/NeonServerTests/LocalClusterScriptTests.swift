import Foundation
import NeonTestSupport
import Testing

/// deploy/cluster/run-local.sh, run as a user would, then Ctrl-C.
@Suite("deploy/cluster/run-local.sh", .serialized)
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

        let started = Self.descendants(of: script.pid)
        defer {
            for pid in started.keys where Self.running(pid) { kill(pid, SIGKILL) }
        }
        #expect(started.values.filter { $0.hasPrefix("redis-server") }.count == 1, "\(started)")
        #expect(started.values.filter { $0.hasPrefix(ServerProcess.binary.path) && $0.contains("--redis") }.count == 2)
        #expect(started.values.contains { $0.hasPrefix("nginx: master process") && $0.contains(directory) })
        #expect(started.values.contains { $0.hasPrefix("nginx: worker process") })

        let (presenter, ada) = try await startPresenter(url: url, ca: ca, room: "local")
        let tails = try (1...2).map { try startTail(url: url, ca: ca, room: "local", name: "t\($0)") }
        for tail in tails {
            #expect(await follows(tail, ada), "\(tail.errorLines)")
        }
        for node in 1...2 {
            let log = (try? String(contentsOfFile: "\(directory)/node-\(node).jsonl", encoding: .utf8)) ?? ""
            #expect(log.contains(#""event":"join""#), "node local-\(node) has members: nginx spread the three over both")
        }
        for tail in tails { #expect(await tail.stop() == 0) }
        _ = await presenter.stop()

        #expect(await script.stop(signal: SIGINT, timeout: .seconds(30)) == 130)
        #expect(script.errorLines.last == "run-local: stopped everything and removed \(directory)")
        for (pid, command) in started {
            #expect(!Self.running(pid), "still running after run-local.sh ended: \(pid) \(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test("run-local.sh refuses a bad node count and a taken port with a sentence, starting nothing")
    func refusals() async throws {
        let usage = try runProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "0"])
        #expect(usage.status == 2 && usage.err == "run-local: usage: run-local.sh [NODES] (1 to 16 neonsyncd nodes, default 3)\n")
        let holder = try ServerProcess()
        let taken = try RunningProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "1"],
                                       environment: ["NEONSYNC_PORT": "\(holder.port)", "NEONSYNCD": ServerProcess.binary.path])
        #expect(await taken.stop(signal: 0, timeout: .seconds(10)) == 1)
        #expect(taken.errorLines.first?.hasPrefix("run-local: port \(holder.port) is taken; choose another: NEONSYNC_PORT=18443") == true)
        #expect(holder.stop() == 0)
    }
}
