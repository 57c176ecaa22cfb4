import Foundation
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// A presenter on Python's websockets (installed by deploy/setup.sh), with
/// the CA's trust, that claims to be 203.0.113.66 in X-Forwarded-For: it
/// joins ROOM, publishes a document and scrolls five times a second until
/// stopped, reading whatever comes back. Prints `welcome ID`.
let presenterScript = #"""
import faulthandler, json, ssl, sys, time
began = time.monotonic()
# If no welcome comes in 20 s, every thread's stack goes to standard error:
# the test's failure then says where the client waited.
faulthandler.dump_traceback_later(20)
def stage(text):
    print("%.2f s: %s" % (time.monotonic() - began, text), file=sys.stderr, flush=True)
from websockets.sync.client import connect
stage("imported websockets")
url, ca, room = sys.argv[1:4]
context = ssl.create_default_context(cafile=ca)
stage("connecting to " + url)
with connect(url, ssl=context, subprotocols=["neonsync.v1"], proxy=None, compression=None,
             additional_headers={"X-Forwarded-For": "203.0.113.66"}) as ws:
    stage("connected to %s" % (ws.remote_address,))
    ws.send(json.dumps({"type": "hello", "room": room, "name": "ada", "role": "presenter"}))
    stage("hello sent")
    while True:
        message = json.loads(ws.recv(timeout=10))
        stage("received " + message["type"])
        if message["type"] == "welcome":
            print("welcome " + message["you"], flush=True)
            faulthandler.cancel_dump_traceback_later()
            break
    text = "# One\n\n" + "a line\n\n" * 40 + "# Two\n\n" + "more\n\n" * 40
    ws.send(json.dumps({"type": "document", "title": "Fleet", "format": "markdown", "text": text}))
    top = 0
    deadline = time.time() + 120
    while time.time() < deadline:
        top = (top + 7) % 150
        ws.send(json.dumps({"type": "scroll", "top": top, "viewport": 20, "content": 170,
                            "anchor": {"block": 1, "offset": 0}}))
        try:
            while True:
                ws.recv(timeout=0.2)
        except TimeoutError:
            pass
"""#

/// Starts the presenter above on `url` for `room`; returns it and its client
/// id. When no welcome comes, the failure shows the stages the presenter
/// reached and what `context` returns (the servers' logs).
func startPresenter(url: String, ca: String, room: String,
                    context: () -> String = { "" }) async throws -> (RunningProgram, String) {
    let presenter = try RunningProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", presenterScript, url, ca, room])
    let welcome = try #require(await presenter.line(timeout: .seconds(30)) { $0.hasPrefix("welcome ") },
                               "python said: \(presenter.errorLines.joined(separator: "\n"))\n\(context())")
    return (presenter, String(welcome.dropFirst("welcome ".count)))
}

/// `neonsync tail ROOM --json` through `url`, trusting `ca`.
func startTail(url: String, ca: String, room: String, name: String) throws -> RunningProgram {
    try RunningProgram(ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync"),
                       ["tail", room, "--json", "--server", url, "--ca", ca, "--name", name])
}

/// Whether `tail` printed a progress of `presenter` past its first `skipped` lines (waits for it).
func follows(_ tail: RunningProgram, _ presenter: String, after skipped: Int = 0) async -> Bool {
    await tail.line(timeout: .seconds(20)) { _ in
        tail.lines.dropFirst(skipped).contains { $0.contains(#""type":"progress""#) && $0.contains(presenter) }
    } != nil
}

/// deploy/nginx/neonsync.conf as render.sh fills it, in front of two real
/// cluster nodes, with real clients through wss://.
@Suite("nginx (deploy/nginx) in front of two cluster nodes", .serialized, .ownThreads)
struct NginxEndToEndTests {
    static let deploy = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy")

    /// deploy/nginx/render.sh with `arguments`; its standard output.
    static func render(_ arguments: [String]) throws -> String {
        let run = try runProgram(URL(fileURLWithPath: "/bin/bash"),
                                 [deploy.appendingPathComponent("nginx/render.sh").path] + arguments)
        guard run.status == 0 else { throw ServerProcessError("render.sh failed (\(run.status)): \(run.err)") }
        return run.out
    }

    @Test("render.sh fills the listen, name, certificate, log and node lines and keeps the rest; proxy_read_timeout is above the nodes' idle timeout; bad values are refused")
    func rendering() throws {
        let template = try String(contentsOf: Self.deploy.appendingPathComponent("nginx/neonsync.conf"), encoding: .utf8)
        let site = try Self.render(["--listen", "127.0.0.1:8443", "--server-name", "sync.test", "--cert", "/c.pem", "--key", "/k.pem",
                                    "--logs", "/l", "--node", "127.0.0.1:1", "--node", "[::1]:2", "--node", "n3.lan:3"])
        let lines = site.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0.hasPrefix("listen ") } == ["listen 127.0.0.1:8443 ssl;"])
        let nodes = ["server 127.0.0.1:1 max_fails=1 fail_timeout=10s;", "server [::1]:2 max_fails=1 fail_timeout=10s;",
                     "server n3.lan:3 max_fails=1 fail_timeout=10s;"]
        #expect(lines.filter { $0.hasPrefix("server ") && $0 != "server {" } == nodes + nodes,
                "every node in both upstreams: the room-hashed one and the least-connections one")
        #expect(lines.contains("hash $arg_room consistent;") && lines.contains("least_conn;")
                && lines.contains("proxy_pass http://$neonsync_pool;"))
        #expect(lines.contains("server_name sync.test;") && lines.contains("ssl_certificate     /c.pem;")
                && lines.contains("ssl_certificate_key /k.pem;") && lines.contains("access_log /l/neonsync.access.log;"))
        let kept = template.split(separator: "\n").filter { $0.contains("proxy_") || $0.contains("map ") || $0.contains("least_conn") || $0.contains("hash ") }
        #expect(!kept.isEmpty && kept.allSatisfy { site.contains($0) }, "every proxy line is kept as shipped")
        let timeout = try #require(site.firstMatch(of: /proxy_read_timeout (\d+)s;/).flatMap { Int($0.output.1) })
        #expect(timeout > 60, "above neonsyncd's default --idle-timeout (60 s)")
        #expect(site.contains("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;"))
        #expect(site.contains("proxy_set_header Forwarded \"\";"))
        #expect(site.contains("proxy_next_upstream error timeout http_502 http_503 http_504;"))

        for bad in [["--node", "x"], ["--node", "a:1;evil"], ["--cert", "/a b"]] {
            var arguments = ["--cert", "/c", "--key", "/k", "--node", "h:1"]
            arguments += bad
            let run = try runProgram(URL(fileURLWithPath: "/bin/bash"), [Self.deploy.appendingPathComponent("nginx/render.sh").path] + arguments)
            #expect(run.status == 2 && run.err.hasPrefix("render.sh: "), "\(bad): \(run.err)")
        }
    }

    @Test("through wss:// at nginx: a room's members, who name it in the URL, meet on one node; every node logs the client's address (not nginx's), a forged X-Forwarded-For is ignored, and when that node stops the whole room comes back through nginx on the other")
    func fleet() async throws {
        let files = try TestCertificates.shared()
        let redis = try RedisProcess()
        // nginx reaches the nodes from 127.0.0.2 (proxy_bind below) so that
        // on one loopback the nodes can tell it from the clients (127.0.0.1).
        let trust = ["--trust-proxy", "127.0.0.2"]
        let a = try clusterNode(redis, "a", trust)
        let b = try clusterNode(redis, "b", trust)
        let port = try RedisProcess.freePort()
        let directory = try NginxProcess.makeDirectory()
        let site = try Self.render(["--listen", "127.0.0.1:\(port)", "--server-name", "localhost",
                                    "--cert", files.certificate, "--key", files.key, "--logs", directory,
                                    "--node", "127.0.0.1:\(a.port)", "--node", "127.0.0.1:\(b.port)"])
        let nginx = try NginxProcess(site: site, directory: directory, port: port, http: ["proxy_bind 127.0.0.2;"])
        let url = "wss://localhost:\(port)/"

        // The Python presenter names the room as neonsync does (?room=).
        let (presenter, ada) = try await startPresenter(url: url + "?room=fleet", ca: files.ca, room: "fleet")
        let tails = try (1...4).map { try startTail(url: url, ca: files.ca, room: "fleet", name: "t\($0)") }
        for tail in tails {
            #expect(await follows(tail, ada), "a reader through nginx sees the presenter's progress: \(tail.errorLines)")
        }

        func members(_ node: ServerProcess) -> Set<String> {
            Set(node.events("join").compactMap { $0["name"] as? String })
        }
        let everyone: Set<String> = ["ada", "t1", "t2", "t3", "t4"]
        let (home, other) = members(a).contains("ada") ? (a, b) : (b, a)
        #expect(members(home) == everyone && members(other).isEmpty,
                "nginx sent the room's five to one node: a \(members(a)), b \(members(b))")
        for node in [a, b] {
            for line in node.events("connect") {
                #expect(line["peer"] as? String == "127.0.0.1" && line["proxy"] as? String == "127.0.0.2", "\(line)")
            }
            #expect(!node.logLines.contains { $0.contains("203.0.113.66") }, "the presenter's own X-Forwarded-For stays ignored")
        }

        // Straight to a node, from an address it does not trust: the header is ignored.
        let forger = try RawWebSocket(port: a.port, from: "127.0.0.3", headers: ["X-Forwarded-For: 203.0.113.77"])
        let forged = await a.log { $0["event"] as? String == "connect" && $0["peer"] as? String == "127.0.0.3" }
        #expect(forged?["forwardedIgnored"] as? Bool == true && forged?["proxy"] == nil)
        #expect(!a.logLines.contains { $0.contains("203.0.113.77") })
        withExtendedLifetime(forger) {}

        // Stop the room's node: its readers come back through nginx on the
        // other node, and so does the presenter when it starts again.
        let before = tails.map(\.lines.count)
        #expect(await home.stopped() == 0)
        _ = await presenter.stop()
        let rejoined = await other.log(timeout: 30) { _ in ["t1", "t2", "t3", "t4"].allSatisfy(members(other).contains) }
        #expect(rejoined != nil, "the readers moved, but the other node has \(members(other))")
        let (again, ada2) = try await startPresenter(url: url + "?room=fleet", ca: files.ca, room: "fleet")
        #expect(await other.log(timeout: 10) { _ in members(other) == everyone } != nil,
                "the presenter is back on the room's new node: \(members(other))")
        for (tail, skipped) in zip(tails, before) {
            #expect(await follows(tail, ada2, after: skipped), "every reader follows again: \(tail.errorLines.suffix(3))")
        }
        let access = nginx.log("neonsync.access.log")
        #expect(access.contains("\" 101 "), "the upgrades in nginx's access log")

        for tail in tails { #expect(await tail.stop() == 0) }
        _ = await again.stop()
        #expect(nginx.stop())
        #expect(await other.stopped() == 0)
        for node in [a, b] {
            for line in node.logLines {
                for problem in LogSchema.problems(of: line) { Issue.record(Comment(rawValue: problem)) }
            }
        }
    }
}
