import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// The upgrade request of `RawWebSocket`, for reading the answer by hand.
private func upgradeRequest(_ extra: String = "") -> String {
    "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Protocol: neonsync.v1\r\n\(extra)\r\n"
}

@Suite("neonsyncd behind a proxy and beside its siblings: --trust-proxy, --reuse-port, 503 while Redis is away", .serialized, .ownThreads)
struct ProxiedNodeTests {
    @Test("behind a trusted proxy the client's address from X-Forwarded-For or Forwarded is logged and counted per address; a forged header from an untrusted address is ignored and said so")
    func trustedAndForged() async throws {
        let server = try ServerProcess(["--trust-proxy", "127.0.0.1", "--max-connections-per-ip", "1"])
        let viaProxy = try RawWebSocket(port: server.port, from: "127.0.0.1", headers: ["X-Forwarded-For: 198.51.100.9, 203.0.113.7"])
        let other = try RawWebSocket(port: server.port, from: "127.0.0.1", headers: [#"Forwarded: for="[2001:db8::17]:4711";proto=https"#])
        let forger = try RawWebSocket(port: server.port, from: "127.0.0.2", headers: ["X-Forwarded-For: 203.0.113.99"])
        let connects = { server.events("connect").count >= 3 }
        let deadline = ContinuousClock.now + .seconds(5)
        while !connects(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let lines = server.events("connect")
        #expect(lines.contains { $0["peer"] as? String == "203.0.113.7" && $0["proxy"] as? String == "127.0.0.1" })
        #expect(lines.contains { $0["peer"] as? String == "2001:db8::17" && $0["proxy"] as? String == "127.0.0.1" })
        #expect(lines.contains { $0["peer"] as? String == "127.0.0.2" && $0["forwardedIgnored"] as? Bool == true && $0["proxy"] == nil })
        #expect(!server.logLines.contains { $0.contains("203.0.113.99") }, "the forged address appears nowhere")

        // The cap counts the client behind the proxy, not the proxy.
        let again = try RawWebSocket(port: server.port, from: "127.0.0.1", headers: ["X-Forwarded-For: 203.0.113.7"])
        var frames: [String] = []
        let close = again.readUntilClose(&frames)
        #expect(close?.closeCode == 1008)
        #expect(frames.contains { $0.contains("too_many_connections") && $0.contains("203.0.113.7 already has 1") })

        // A page the allow-list refuses, through the proxy: its client is named too.
        let refused = try httpRequest(port: server.port, upgradeRequest("Origin: https://evil.example\r\nX-Forwarded-For: 203.0.113.44\r\n"))
        #expect(refused.status == 403)
        let origin = await server.log(timeout: 15) { $0["event"] as? String == "origin_refused" }
        #expect(origin?["peer"] as? String == "203.0.113.44" && origin?["proxy"] as? String == "127.0.0.1")
        #expect(await server.stopped() == 0)
        for line in server.logLines {
            for problem in LogSchema.problems(of: line) { Issue.record(Comment(rawValue: problem)) }
        }
        withExtendedLifetime((viaProxy, other, forger)) {}
    }

    @Test("a cluster node that cannot reach Redis answers handshakes 503, as its /healthz, until Redis is back")
    func unavailableWhileRedisIsAway() async throws {
        let redis = try RedisProcess()
        let node = try clusterNode(redis, "solo")
        #expect(try httpRequest(port: node.port, upgradeRequest()).status == 101)
        redis.stop(signal: SIGKILL)
        #expect(await node.log(timeout: 10) { $0["event"] as? String == "redis_down" } != nil)
        let refused = try httpRequest(port: node.port, upgradeRequest())
        #expect(refused.status == 503)
        #expect(refused.body == "unavailable: this node cannot reach the cluster's Redis; connect to another node\n")
        #expect(try httpRequest(port: node.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 503)
        try redis.start()
        #expect(await node.log(timeout: 15) { $0["event"] as? String == "redis_up" } != nil)
        let peer = try await TestPeer.connect(url: node.url)
        _ = try await peer.hello(room: "back", name: "ada", role: .reader)
        peer.close()
        #expect(await node.stopped() == 0)
    }

    @Test("--reuse-port: two cluster nodes listen on one port, the kernel spreads connections over both, and people on either meet in one room")
    func reusePort() async throws {
        let redis = try RedisProcess()
        let port = try RedisProcess.freePort()
        let shared = ["--port", "\(port)", "--reuse-port"]
        let a = try clusterNode(redis, "a", shared)
        let b = try clusterNode(redis, "b", shared)
        #expect(a.port == port && b.port == port)
        var peers: [TestPeer] = []
        for n in 0..<24 {
            let peer = try await TestPeer.connect(url: "ws://127.0.0.1:\(port)/")
            _ = try await peer.hello(room: "shared", name: "r\(n)", role: .reader)
            peers.append(peer)
        }
        // A node may write its join line just after the welcome went out.
        let joined = ContinuousClock.now + .seconds(15)
        while a.events("join").count + b.events("join").count < 24, ContinuousClock.now < joined {
            try await Task.sleep(for: .milliseconds(10))
        }
        let onA = a.events("join").count
        let onB = b.events("join").count
        #expect(onA + onB == 24)
        #expect(onA > 0 && onB > 0, "24 connections all went to one node (a \(onA), b \(onB))")
        let last = try await TestPeer.connect(url: "ws://127.0.0.1:\(port)/")
        let welcome = try await last.hello(room: "shared", name: "last", role: .reader)
        #expect(welcome.readers.count == 25, "one room across both nodes")
        for peer in peers + [last] { peer.close() }
        #expect(await a.stopped() == 0)
        #expect(await b.stopped() == 0)
    }

    @Test("--reuse-port with --tls-cert: the shared port serves wss:// and HTTPS from both nodes, checked from Python's ssl")
    func reusePortOverTLS() async throws {
        let files = try TestCertificates.shared()
        let redis = try RedisProcess()
        let port = try RedisProcess.freePort()
        let shared = ["--port", "\(port)", "--reuse-port", "--tls-cert", files.certificate, "--tls-key", files.key]
        let a = try clusterNode(redis, "a", shared)
        let b = try clusterNode(redis, "b", shared)
        let script = """
        import json, ssl, sys, urllib.request
        from websockets.sync.client import connect
        port, ca = sys.argv[1], sys.argv[2]
        context = ssl.create_default_context(cafile=ca)
        retries = 0
        def join(n):
            with connect(f"wss://localhost:{port}/", ssl=context, subprotocols=["neonsync.v1"], proxy=None, open_timeout=20) as ws:
                ws.send(json.dumps({"type": "hello", "room": "tls", "name": f"r{n}", "role": "reader"}))
                while json.loads(ws.recv(timeout=20))["type"] != "welcome":
                    pass
        for n in range(12):
            with urllib.request.urlopen(f"https://localhost:{port}/healthz", context=context, timeout=20) as answer:
                assert answer.read() == b"ok\\n"
            # A client retries a handshake that failed, as neonsync does: on a
            # loaded machine one sometimes ends without a full HTTP answer
            # (issue 14's closing note); the retries are counted on stderr.
            for attempt in range(3):
                try:
                    join(n)
                    break
                except Exception as error:
                    if attempt == 2:
                        raise
                    retries += 1
                    print(f"retry {n}: {error}", file=sys.stderr)
        print(f"retries {retries}", file=sys.stderr)
        print("ok")
        """
        let run = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, "\(port)", files.ca])
        #expect(run.out == "ok\n", "python said: \(run.err)")
        #expect(a.events("join").count + b.events("join").count >= 12, "every reader joined (a retried one may have joined twice)")
        #expect(a.events("join").count > 0 && b.events("join").count > 0, "both nodes served")
        #expect(await a.stopped() == 0)
        #expect(await b.stopped() == 0)
    }

    @Test("--reuse-port and --trust-proxy refuse what cannot work with a sentence and exit 2")
    func refusals() throws {
        let cases: [([String], String)] = [
            (["--reuse-port", "--port", "7999"],
             "--reuse-port lets several processes share one port, and without --redis each would keep rooms of its own: people sent to different processes would never meet. Add --redis redis://HOST:PORT to make them nodes of one cluster, or drop --reuse-port"),
            (["--reuse-port", "--redis", "redis://127.0.0.1:1", "--node", "a"],
             "--reuse-port shares one port between nodes, but --port 0 picks a different free port for each; give the port with --port N"),
            (["--reuse-port", "--redis", "redis://127.0.0.1:1", "--port", "7999", "--node", "a", "--host", "eth0", "--insecure-open"],
             "--reuse-port needs --host as an IP address (such as 127.0.0.1, 0.0.0.0 or ::), not eth0"),
            (["--trust-proxy", "10.0.0.0/33"],
             "--trust-proxy 10.0.0.0/33 is not an address; give the IP address of a proxy in front of this server (127.0.0.1, ::1) or a CIDR range of them (10.0.0.0/8, fd00::/8)"),
            (["--trust-proxy", "proxy.example"],
             "--trust-proxy proxy.example is not an address; give the IP address of a proxy in front of this server (127.0.0.1, ::1) or a CIDR range of them (10.0.0.0/8, fd00::/8)"),
        ]
        for (flags, sentence) in cases {
            let run = try runDaemon(["--port", "0"] + flags)
            #expect(run.status == 2, "\(flags)")
            #expect(run.err == "neonsyncd: \(sentence)\n")
        }
        let run = try runDaemon(["--reuse-port", "--redis", "redis://127.0.0.1:1", "--port", "7999"])
        #expect(run.status == 2)
        #expect(run.err.hasPrefix("neonsyncd: --reuse-port runs several nodes on one HOST:PORT, the default node name, and a cluster refuses two live nodes of one name; give each its own --node NAME"))
    }

    @Test("a secret and a Redis password handed over by systemd (LoadCredential=) are read though systemd's ACL shows in their group bits; the same files elsewhere are refused")
    func systemdCredentials() async throws {
        let redis = try RedisProcess(["--requirepass", "s3cret-pass"])
        let credentials = NSTemporaryDirectory() + "neonsync-credentials-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: credentials) }
        try "a-secret-of-more-than-sixteen-bytes\n".write(toFile: credentials + "/secret", atomically: true, encoding: .utf8)
        try "s3cret-pass\n".write(toFile: credentials + "/redis-password", atomically: true, encoding: .utf8)
        // What `ls -l` shows for a credential granted by ACL: r--r-----.
        chmod(credentials + "/secret", 0o440)
        chmod(credentials + "/redis-password", 0o440)
        let flags = ["--port", "0", "--log", "-", "--redis", redis.url, "--node", "cred",
                     "--secret-file", credentials + "/secret", "--redis-password-file", credentials + "/redis-password"]
        let elsewhere = try runDaemon(flags)
        #expect(elsewhere.status == 2)
        #expect(elsewhere.err.contains("can be read by its group (mode 440)"), "\(elsewhere.err)")

        let node = try RunningProgram(ServerProcess.binary, flags, environment: ["CREDENTIALS_DIRECTORY": credentials])
        let started = try #require(await node.line { $0.contains(#""event":"start""#) }, "\(node.errorLines)")
        #expect(started.contains(#""tokens":true"#))
        #expect(await node.stop() == 0, "\(node.errorLines)")
    }
}
