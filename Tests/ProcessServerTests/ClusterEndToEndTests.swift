import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import NeonTransportCore
import Synchronization
import Testing

@Suite("Cluster mode: several neonsyncd nodes on one Redis", .serialized, .ownThreads)
struct ClusterEndToEndTests {
    @Test("readers on two nodes share one room: the welcome lists both, and joined, document, progress, tab and left reach the other node with the same seq")
    func coReadAcrossNodes() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        let bob = try await TestPeer.connect(url: b.url)
        let adaWelcome = try await ada.hello(room: "guide", name: "ada", role: .presenter)
        let bobWelcome = try await bob.hello(room: "guide", name: "bob", role: .reader)
        #expect(bobWelcome.readers.map(\.name) == ["ada", "bob"])
        #expect(bobWelcome.presenter == adaWelcome.you)
        #expect(adaWelcome.you != bobWelcome.you, "client ids are unique across nodes")
        let joined = try await ada.next("joined")
        guard case let .joined(reader) = joined.payload else { throw ServerProcessError("no joined") }
        #expect(reader.name == "bob" && reader.id == bobWelcome.you)

        ada.send(.document(title: "Guide", format: .markdown, text: "# One\n\ntext\n\n# Two\n\nmore text\n"))
        let documentAtAda = try await ada.next("document")
        let documentAtBob = try await bob.next("document")
        #expect(documentAtAda.seq == documentAtBob.seq)

        ada.send(.scroll(top: 3, viewport: 4, content: 10, anchor: Anchor(block: 1, offset: 0)))
        let progressAtAda = try await ada.next("progress")
        let progressAtBob = try await bob.next("progress")
        #expect(progressAtAda == progressAtBob)
        guard case let .progress(info) = progressAtBob.payload else { throw ServerProcessError("no progress") }
        #expect(info.id == adaWelcome.you && info.percent == 50)

        let late = try await TestPeer.connect(url: b.url)
        let lateWelcome = try await late.hello(room: "guide", name: "cy", role: .observer)
        #expect(lateWelcome.document?.title == "Guide", "a late joiner on the other node gets the document")
        late.close()
        _ = try await ada.next("left")

        ada.send(.tab(section: 1))
        let tabAtAda = try await ada.next("tab")
        let tabAtBob = try await bob.next("tab")
        #expect(tabAtAda == tabAtBob)

        bob.close()
        let left = try await ada.next("left")
        guard case let .left(gone) = left.payload else { throw ServerProcessError("no left") }
        #expect(gone.id == bobWelcome.you)
        #expect(left.seq == tabAtAda.seq + 1, "one seq space: left follows the tab")
        ada.close()
        #expect(a.waitForLog { $0["event"] as? String == "join" && $0["node"] as? String == "a" } != nil)
        #expect(b.events("join").allSatisfy { $0["node"] as? String == "b" })
    }

    @Test("a presenter whose node is SIGKILLed is the presenter again on another node at once: its resume secret replaces its earlier connection without waiting for the dead node to be reaped, and a follower there sees left then joined")
    func presenterFailover() async throws {
        let redis = try RedisProcess()
        // A dead a is reaped 30 s after its last heartbeat at the earliest:
        // a welcome before that came by the resume secret.
        let a = try clusterNode(redis, "a", ["--node-timeout", "30"])
        let b = try clusterNode(redis, "b")
        let secret = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
        let ada = try await TestPeer.connect(url: a.url)
        ada.send(.hello(room: "talk", name: "ada", role: .presenter, resume: secret))
        let first = try await ada.next("welcome")
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await bob.hello(room: "talk", name: "bob", role: .reader)
        _ = a.stop(signal: SIGKILL)

        let started = ContinuousClock.now
        let again = try await TestPeer.connect(url: b.url)
        again.send(.hello(room: "talk", name: "ada", role: .presenter, resume: secret))
        let reply = try await again.next(timeout: .seconds(5))
        guard case let .welcome(welcome) = reply.payload else { throw ServerProcessError("expected a welcome, got \(reply)") }
        #expect(started.duration(to: .now) < .seconds(25), "welcomed long before the dead node could be reaped")
        #expect(welcome.presenter == welcome.you)
        #expect(welcome.readers.map(\.name) == ["bob", "ada"])
        guard case let .welcome(old) = first.payload else { throw ServerProcessError("no first welcome") }
        let left = try await bob.next("left")
        guard case let .left(gone) = left.payload else { throw ServerProcessError("no left") }
        #expect(gone.id == old.you)
        let joined = try await bob.next("joined")
        guard case let .joined(back) = joined.payload else { throw ServerProcessError("no joined") }
        #expect(back.id == welcome.you && back.role == .presenter && joined.seq == left.seq + 1)
    }

    @Test("three editors on three nodes make 200 edits each while an observer on every node watches; one node is SIGKILLed halfway: every acked edit is in the draft exactly once on every live node, everyone converges, seq never decreases, one limit event per crossing, the dead node's members leave once its timeout expires (about 8 s); Redis SIGKILLed and restarted from its AOF keeps every acked revision")
    func threeEditorsAndANodeKill() async throws {
        try await threeEditorsSurviveANodeKill([try RedisProcess()])
    }

    @Test("Redis lost while running: an edit gets error unavailable and no ack, /healthz answers 503, redis_down and redis_up are logged, and once Redis is back the resent edit is acked")
    func redisLoss() async throws {
        let redis = try RedisProcess()
        let node = try clusterNode(redis, "solo")
        let peer = try await TestPeer.connect(url: node.url)
        _ = try await peer.hello(room: "r", name: "ada", role: .reader)
        let bob = try await TestPeer.connect(url: node.url)
        _ = try await bob.hello(room: "r", name: "bob", role: .reader)
        peer.send(.edit(rev: 0, ops: TextOperation([.insert("a")]), key: "k1"))
        #expect(try await peer.next("ack").payload == .ack(rev: 1))
        #expect(try httpRequest(port: node.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)

        redis.stop(signal: SIGKILL)
        bob.close()
        #expect(await node.log(timeout: 10) { $0["event"] as? String == "redis_down" } != nil)
        #expect(try httpRequest(port: node.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 503)
        peer.send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "k2"))
        let refused = try await peer.next(timeout: .seconds(10))
        guard case let .error(error) = refused.payload else { throw ServerProcessError("expected an error, got \(refused)") }
        #expect(error.code == .unavailable)

        try redis.start()
        #expect(await node.log(timeout: 15) { $0["event"] as? String == "redis_up" } != nil)
        #expect(try httpRequest(port: node.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
        peer.send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "k2"))
        #expect(try await peer.next("ack", timeout: .seconds(10)).payload == .ack(rev: 2))
        let draft = try await draftSeen(at: node.url, room: "r")
        #expect(draft.text == "ab")
        // bob left while Redis was away: his leaving reaches the room once it is back.
        var names: [String] = ["bob"]
        let until = ContinuousClock.now + .seconds(10)
        while names.contains("bob"), ContinuousClock.now < until {
            let look = try await TestPeer.connect(url: node.url)
            names = try await look.hello(room: "r", name: "look", role: .observer).readers.map(\.name)
            look.close()
            if names.contains("bob") { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(!names.contains("bob") && names.contains("ada"), "\(names)")
        let metrics = try httpRequest(port: node.port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").body
        #expect(metrics.contains("neonsync_redis_connected{node=\"solo\"} 1"))
        #expect(metrics.contains("neonsync_redis_command_seconds_count{node=\"solo\"}"))
        #expect(metrics.contains("neonsync_redis_delivery_lag_seconds_bucket{node=\"solo\",le=\"+Inf\"}"))
        let events = expectDocumentedLog(node, name: "solo")
        #expect(events.isSuperset(of: ["redis_down", "redis_up", "error", "join"]))
    }

    @Test("Redis restarted without its data (no AOF): the node notices, closes its members with 4013 and logs why, and people who join again find the room as Redis has it now, working")
    func redisLostItsData() async throws {
        let redis = try RedisProcess()
        let node = try clusterNode(redis, "solo")
        let peer = try await TestPeer.connect(url: node.url)
        _ = try await peer.hello(room: "r", name: "ada", role: .reader)
        peer.send(.edit(rev: 0, ops: TextOperation([.insert("kept?")]), key: "k1"))
        #expect(try await peer.next("ack").payload == .ack(rev: 1))

        redis.stop(signal: SIGKILL)
        try FileManager.default.removeItem(atPath: redis.directory + "/appendonlydir")
        try redis.start()
        let close = try await peer.client.waitForClose()
        #expect(close.code == CloseCode.rejoin)
        #expect(await node.log(timeout: 10) {
            ["membership_lost", "room_reset"].contains($0["event"] as? String ?? "")
        } != nil)

        let deadline = ContinuousClock.now + .seconds(10)
        var welcome: Welcome?
        while welcome == nil, ContinuousClock.now < deadline {
            // Until the node's writer is back on Redis its handshakes get 503, as its /healthz.
            guard let again = try? await TestPeer.connect(url: node.url) else {
                try await Task.sleep(for: .milliseconds(200))
                continue
            }
            again.send(.hello(room: "r", name: "ada", role: .reader))
            if let reply = try? await again.next(timeout: .seconds(3)), case let .welcome(w) = reply.payload {
                welcome = w
                again.send(.edit(rev: w.draft.rev, ops: TextOperation([.insert("new")]), key: "k2"))
                #expect(try await again.next("ack").payload == .ack(rev: 1))
            } else {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(welcome?.draft.rev == 0 && welcome?.draft.text == "", "the room starts over as Redis has it: \(String(describing: welcome?.draft))")
        expectDocumentedLog(node, name: "solo")
    }

    @Test("an observer of every room on a node that holds no rooms sees the cluster's rooms: the node takes them up, sends a fresh overview, then relays their broadcasts")
    func everyRoomAcrossNodes() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        _ = try await ada.hello(room: "quiet", name: "ada", role: .reader)
        let watcher = try await TestPeer.connect(url: b.url)
        watcher.send(.hello(room: "*", name: "ops", role: .observer))
        var listed: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while !listed.contains("quiet"), ContinuousClock.now < deadline {
            let message = try await watcher.next(timeout: .seconds(10))
            if case let .overview(overview) = message.payload { listed = overview.rooms.map(\.room) }
        }
        #expect(listed == ["quiet"])
        ada.send(.relay(data: "ping"))
        let relayed = try await watcher.next("room")
        guard case let .room(envelope) = relayed.payload else { throw ServerProcessError("no envelope") }
        #expect(envelope.room == "quiet" && envelope.message.type == "relay")
    }

    @Test("a node paused past its heartbeat (SIGSTOP) is reaped: its members leave elsewhere; when it resumes it learns it, closes its connections with 4013, and what it sends late changes nothing")
    func pausedNode() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let ada = try await TestPeer.connect(url: a.url)
        let adaWelcome = try await ada.hello(room: "p", name: "ada", role: .reader)
        let bob = try await TestPeer.connect(url: b.url)
        _ = try await bob.hello(room: "p", name: "bob", role: .reader)
        _ = try await ada.next("joined")
        try a.pause()
        ada.send(.edit(rev: 0, ops: TextOperation([.insert("late")]), key: "late"))
        let left = try await bob.next("left", timeout: .seconds(15))
        guard case let .left(gone) = left.payload else { throw ServerProcessError("no left") }
        #expect(gone.id == adaWelcome.you)
        a.signal(SIGCONT)
        let close = try await ada.client.waitForClose()
        #expect(close.code == CloseCode.rejoin)
        #expect(await a.log(timeout: 10) { $0["event"] as? String == "membership_lost" } != nil)
        try await Task.sleep(for: .milliseconds(500))
        let draft = try await draftSeen(at: b.url, room: "p")
        #expect(draft.rev == 0 && draft.text == "", "the reaped member's late edit was not applied")
        let again = try await TestPeer.connect(url: a.url)
        let welcome = try await again.hello(room: "p", name: "ada", role: .reader)
        let names = welcome.readers.map(\.name)
        #expect(names.first == "bob" && names.last == "ada" && names.filter { $0 == "ada" }.count == 1,
                "the node serves the room again: \(names)")
    }

    @Test("a Redis password comes from --redis-password-file: right, the node joins; wrong, it exits 1 saying so; a file others can read is refused (exit 2)")
    func redisPassword() throws {
        let redis = try RedisProcess(["--requirepass", "s3cret-pass"])
        let directory = try TemporaryDirectory()
        let good = directory.path + "/good"
        let bad = directory.path + "/bad"
        try "s3cret-pass\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "wrong\n".write(toFile: bad, atomically: true, encoding: .utf8)
        chmod(good, 0o600)
        chmod(bad, 0o600)
        let node = try clusterNode(redis, "pw", ["--redis-password-file", good])
        #expect(try httpRequest(port: node.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
        let refused = try runDaemon(["--port", "0", "--redis", redis.url, "--redis-password-file", bad])
        #expect(refused.status == 1 && refused.err.contains("refused the password"), "\(refused.err)")
        chmod(good, 0o644)
        let open = try runDaemon(["--port", "0", "--redis", redis.url, "--redis-password-file", good])
        #expect(open.status == 2 && open.err.contains("chmod 600"), "\(open.err)")
        chmod(good, 0o620)
        let writable = try runDaemon(["--port", "0", "--redis", redis.url, "--redis-password-file", good])
        #expect(writable.status == 2 && writable.err.contains(
            "the password file \(good) can be written by its group (mode 620); run chmod 600 \(good)"), "\(writable.err)")
    }

    @Test("start-up refusals: a Redis that cannot be reached exits 1 naming the URL, a second live node with the same name exits 1 saying so, cluster flags without --redis exit 2")
    func startRefusals() throws {
        let port = try RedisProcess.freePort()
        let unreachable = try runDaemon(["--port", "0", "--redis", "redis://127.0.0.1:\(port)"])
        #expect(unreachable.status == 1)
        #expect(unreachable.err.contains("redis://127.0.0.1:\(port)"), "\(unreachable.err)")

        let redis = try RedisProcess()
        let first = try clusterNode(redis, "same")
        let second = try runDaemon(["--port", "0", "--redis", redis.url, "--node", "same"])
        #expect(second.status == 1)
        #expect(second.err.contains("already named \"same\""), "\(second.err)")
        _ = first

        let lonely = try runDaemon(["--node", "x"])
        #expect(lonely.status == 2 && lonely.err.contains("--redis"), "\(lonely.err)")
        let badURL = try runDaemon(["--redis", "http://127.0.0.1:6379"])
        #expect(badURL.status == 2 && badURL.err.contains("redis://HOST:PORT"), "\(badURL.err)")
    }

    @Test("1,000 clients of a SIGKILLed node reconnect to another node and are all welcomed into their room without an error")
    func reconnectStorm() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        let count = 1000
        var peers: [TestPeer] = []
        for i in 0 ..< count {
            let peer = try await TestPeer.connect(url: a.url)
            peer.send(.hello(room: "storm-\(i % 10)", name: "r\(i)", role: .reader))
            peers.append(peer)
        }
        for peer in peers { _ = try await peer.next("welcome", timeout: .seconds(30)) }
        _ = a.stop(signal: SIGKILL)
        for peer in peers { peer.close() }
        peers.removeAll()
        var welcomed = 0
        var errors: [String] = []
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0 ..< count {
                group.addTask {
                    let peer = try await TestPeer.connect(url: b.url)
                    defer { peer.close() }
                    peer.send(.hello(room: "storm-\(i % 10)", name: "r\(i)", role: .reader))
                    let reply = try await peer.next(timeout: .seconds(30))
                    return reply.type == "welcome"
                }
            }
            for try await ok in group {
                if ok { welcomed += 1 } else { errors.append("not welcomed") }
            }
        }
        #expect(welcomed == count, "\(welcomed) of \(count) welcomed; \(errors.prefix(3))")
        #expect(b.events("error").isEmpty, "\(b.events("error").prefix(3))")
    }
}

