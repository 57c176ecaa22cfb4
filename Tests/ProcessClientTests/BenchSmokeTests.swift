import Foundation
import NeonClientTestSupport
import NeonTestSupport
import Testing

/// Tiny runs of the real `neonsync bench` against a real neonsyncd: the
/// figures are checked for consistency, never for speed.
@Suite("neonsync bench smoke runs", .ownThreads)
struct BenchSmokeTests {
    /// Runs the bench to its end; returns its status, stdout lines and the last line's JSON.
    func run(_ arguments: [String]) throws -> (status: Int32?, lines: [String], figures: [String: Any]) {
        let bench = try TailProcess(["bench"] + arguments)
        let status = bench.exitStatus(timeout: 60)
        var lines = bench.lines
        let deadline = Date().addingTimeInterval(5)
        while lines.last?.hasPrefix("{") != true, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            lines = bench.lines
        }
        let json = lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
        return (status, lines, json ?? [:])
    }

    func expectSanePercentiles(_ figures: [String: Any]) {
        let values = ["p50_ms", "p90_ms", "p99_ms", "max_ms"].compactMap { (figures[$0] as? NSNumber)?.doubleValue }
        #expect(values.count == 4, "\(figures)")
        #expect(values == values.sorted() && (values.first ?? -1) >= 0, "\(values)")
    }

    @Test("bench follow: 3 followers receive every scroll of the presenter, each matched to its send time")
    func follow() throws {
        let server = try ServerProcess(["--max-rate", "0"])
        let (status, lines, figures) = try run(["follow", "--server", "ws://127.0.0.1:\(server.port)/",
                                                "--followers", "3", "--duration", "1", "--rate", "20"])
        #expect(status == 0, "\(lines)")
        #expect(lines.first == "neonsync bench follow → ws://127.0.0.1:\(server.port)/ (neonsync)")
        #expect(lines.contains { $0.hasPrefix("  p99_ms ") && $0.hasSuffix(" ms") })
        #expect(figures["scenario"] as? String == "follow")
        #expect(figures["connections"] as? Int == 4)
        let sent = figures["sent"] as? Int ?? 0
        #expect(sent >= 15 && sent <= 21, "\(figures)")
        // Each scroll is delivered to each follower or superseded by a newer
        // one (latest-wins coalescing for a socket that was not writable),
        // never lost.
        let coalesced = figures["coalesced"] as? Int ?? -1
        #expect((figures["delivered"] as? Int ?? 0) + coalesced == sent * 3, "\(figures)")
        #expect(figures["mismatched"] as? Int == 0)
        #expect(figures["server_errors"] as? Int == 0)
        expectSanePercentiles(figures)
    }

    @Test("bench relay: every member gets every relayed message, the sender included, and the window keeps sending")
    func relay() throws {
        let server = try ServerProcess(["--max-rate", "0"])
        let (status, lines, figures) = try run(["relay", "--server", "ws://127.0.0.1:\(server.port)/",
                                                "--connections", "3", "--duration", "1", "--window", "2", "--size", "100"])
        #expect(status == 0, "\(lines)")
        let sent = figures["sent"] as? Int ?? 0
        #expect(sent > 2, "the window of 2 was refilled as copies came back: \(figures)")
        #expect(figures["delivered"] as? Int == sent * 3)
        #expect(figures["malformed"] as? Int == 0)
        expectSanePercentiles(figures)
    }

    @Test("bench draft: editors' edits reach every other member by key, and the server acks each")
    func draft() throws {
        let server = try ServerProcess(["--max-rate", "0"])
        let (status, lines, figures) = try run(["draft", "--server", "ws://127.0.0.1:\(server.port)/",
                                                "--editors", "2", "--watchers", "2", "--duration", "1", "--rate", "5"])
        #expect(status == 0, "\(lines)")
        let sent = figures["sent"] as? Int ?? 0
        #expect(sent > 0, "\(figures)")
        #expect(figures["delivered"] as? Int == sent * 3)
        #expect(figures["server_errors"] as? Int == 0)
        expectSanePercentiles(figures)
    }

    @Test("bench connect holds its connections and reports the server's memory with --server-pid")
    func connect() throws {
        let server = try ServerProcess(["--max-rate", "0"])
        let (status, lines, figures) = try run(["connect", "--server", "ws://127.0.0.1:\(server.port)/",
                                                "--connections", "5", "--per-room", "2", "--duration", "0.5",
                                                "--server-pid", String(server.pid)])
        #expect(status == 0, "\(lines)")
        #expect(figures["held"] as? Int == 5)
        #expect((figures["server_rss_kib"] as? Int ?? 0) > 0)
        #expect(figures["server_idle_cpu_pct"] != nil)
        expectSanePercentiles(figures)
    }

    @Test("bench connect --server A,B deals the connections over two real servers: each server sees half")
    func connectOverTwoServers() throws {
        let a = try ServerProcess(["--max-rate", "0"])
        let b = try ServerProcess(["--max-rate", "0"])
        let list = "\(a.url),\(b.url)"
        let (status, lines, figures) = try run(["connect", "--server", list, "--connections", "4", "--per-room", "2",
                                                "--duration", "0.5"])
        #expect(status == 0, "\(lines)")
        #expect(lines.first == "neonsync bench connect → \(list) (neonsync)")
        #expect(figures["server"] as? String == list)
        #expect(figures["held"] as? Int == 4)
        #expect(figures["server_1_connections"] as? Int == 2)
        #expect(figures["server_2_connections"] as? Int == 2)
        #expect(a.events("connect").count == 2, "\(a.events("connect"))")
        #expect(b.events("connect").count == 2, "\(b.events("connect"))")
        expectSanePercentiles(figures)
    }

    @Test("bench follow over two URLs of one server: the presenter on the first, the followers split evenly, every scroll delivered or superseded by a newer one")
    func followOverTwoURLs() throws {
        let server = try ServerProcess(["--max-rate", "0"])
        let list = "ws://127.0.0.1:\(server.port)/,ws://localhost:\(server.port)/"
        let (status, lines, figures) = try run(["follow", "--server", list, "--followers", "4",
                                                "--duration", "1", "--rate", "20"])
        #expect(status == 0, "\(lines)")
        #expect(figures["connections"] as? Int == 5)
        #expect(figures["server_1_connections"] as? Int == 3, "the presenter and 2 of the 4 followers: \(figures)")
        #expect(figures["server_2_connections"] as? Int == 2, "\(figures)")
        let sent = figures["sent"] as? Int ?? 0
        #expect(sent >= 15 && sent <= 21, "\(figures)")
        // A follower whose socket was not writable for a scroll's interval
        // gets the newer position in place of the older (latest-wins
        // coalescing): each scroll is delivered or superseded, none lost.
        let coalesced = figures["coalesced"] as? Int ?? -1
        #expect((figures["delivered"] as? Int ?? 0) + coalesced == sent * 4, "\(figures)")
        #expect(figures["mismatched"] as? Int == 0)
    }

    @Test("bench rooms: 3 rooms of 2 readers, every scroll reaches both members of its room (or is superseded by a newer one), each matched to its send time")
    func rooms() async throws {
        let server = try ServerProcess(["--max-rate", "0"])
        let (status, lines, figures) = try run(["rooms", "--server", server.url, "--rooms", "3", "--per-room", "2",
                                                "--duration", "1", "--rate", "30", "--server-pid", String(server.pid)])
        #expect(status == 0, "\(lines)")
        #expect(figures["connections"] as? Int == 6)
        let sent = figures["sent"] as? Int ?? 0
        #expect(sent >= 20 && sent <= 31, "\(figures)")
        let coalesced = figures["coalesced"] as? Int ?? -1
        #expect((figures["delivered"] as? Int ?? 0) + coalesced == sent * 2, "\(figures)")
        #expect((figures["events"] as? Int ?? 0) > 0 && (figures["events"] as? Int ?? 0) <= sent, "\(figures)")
        #expect(figures["mismatched"] as? Int == 0 && figures["server_errors"] as? Int == 0)
        #expect(await server.events("join", count: 6).count == 6)
        expectSanePercentiles(figures)
    }

    @Test("bench rooms --rate 0 over two servers: each room whole on one server (rooms 0 and 2 on the first, room 1 on the second), and the window refills as scrolls come back")
    func roomsOverTwoServers() async throws {
        let a = try ServerProcess(["--max-rate", "0"])
        let b = try ServerProcess(["--max-rate", "0"])
        let (status, lines, figures) = try run(["rooms", "--server", "\(a.url),\(b.url)", "--rooms", "3", "--per-room", "2",
                                                "--duration", "1", "--window", "2"])
        #expect(status == 0, "\(lines)")
        #expect(figures["server_1_connections"] as? Int == 4 && figures["server_2_connections"] as? Int == 2, "\(figures)")
        #expect((figures["sent"] as? Int ?? 0) > 6, "the windows were refilled: \(figures)")
        #expect(Set(await a.events("join", count: 4).compactMap { $0["room"] as? String }).count == 2)
        #expect(Set(await b.events("join", count: 2).compactMap { $0["room"] as? String }).count == 1)
    }

    @Test("a bench --server list with an empty entry exits 2 naming it")
    func badServerList() throws {
        let bench = try TailProcess(["bench", "connect", "--server", "ws://127.0.0.1:1/,", "--connections", "2"])
        #expect(bench.exitStatus(timeout: 10) == 2)
        try bench.waitForError(containing: "neonsync bench: --server ws://127.0.0.1:1/,: entry 2 of 2 is empty;")
    }

    @Test("bad bench usage exits 2 with a sentence naming the flag; an unreachable server exits 1")
    func usage() throws {
        let wrong = try TailProcess(["bench", "follow", "--watchers", "3"])
        #expect(wrong.exitStatus(timeout: 10) == 2)
        try wrong.waitForError(containing: "--watchers belongs to neonsync bench draft")
        let nowhere = try TailProcess(["bench", "relay", "--server", "ws://127.0.0.1:1/", "--connections", "2", "--duration", "1"])
        #expect(nowhere.exitStatus(timeout: 30) == 1)
        try nowhere.waitForError(containing: "could not open")
    }

    @Test("each scenario takes only its own flags: redis refuses --server and --server-pid, the others --redis, and core an unknown part, each with status 2")
    func flagsOfEachScenario() throws {
        let cases: [([String], String)] = [
            (["redis", "--server", "ws://127.0.0.1:1/"], "neonsync bench: --server belongs to neonsync bench follow or coread or draft or relay or connect or rooms or churn"),
            (["redis", "--server-pid", "1"], "neonsync bench: --server-pid belongs to neonsync bench follow or coread"),
            (["follow", "--redis", "redis://127.0.0.1:1"], "neonsync bench: --redis belongs to neonsync bench redis; see neonsync bench --help"),
            (["rooms", "--redis-password-file", "/nonexistent"], "neonsync bench: --redis-password-file belongs to neonsync bench redis"),
            (["core", "reducr"], "neonsync bench: core: unknown part reducr (did you mean reducer?); choose from reducer, layout, render, highlight, or none for all"),
        ]
        for (arguments, sentence) in cases {
            let run = try runClient(["bench"] + arguments)
            #expect(run.status == 2, "neonsync bench \(arguments.joined(separator: " ")): \(run.err)")
            #expect(run.err.hasPrefix(sentence), "neonsync bench \(arguments.joined(separator: " ")): \(run.err)")
        }
    }
}
