import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import NeonTransport
import Testing

/// neonsyncd with --tls-cert/--tls-key and --allow-origin, as a user runs it.
@Suite("neonsyncd over TLS", .serialized, .ownThreads)
struct TLSEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("interop/python_tls_client.py")

    let files: TestCertificates

    init() throws {
        files = try TestCertificates.shared()
    }

    @Test("wss://, HTTPS /healthz and /metrics and the Origin allow-list, checked from Python's ssl and websockets")
    func pythonOverTLS() throws {
        let server = try ServerProcess(["--tls-cert", files.certificate, "--tls-key", files.key,
                                        "--allow-origin", "https://app.example.com"])
        let start = try #require(server.events("start").first)
        #expect(start["tls"] as? Bool == true)
        #expect(start["origins"] as? String == "https://app.example.com")

        let run = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script.path, String(server.port), files.ca, "https://app.example.com"])
        #expect(run.status == 0, "python said:\n\(run.out)\n(run ./deploy/setup.sh to install websockets)")
        #expect(run.out.hasSuffix("tls interop ok\n"))
        #expect(!run.out.contains("FAIL"))

        let refused = try #require(server.waitForLog { $0["event"] as? String == "origin_refused" })
        #expect(refused["origin"] as? String == "https://evil.example")
        #expect(refused["peer"] as? String == "127.0.0.1")
        #expect(server.events("origin_refused").count == 1)
        #expect(server.stop() == 0)
        for line in server.logLines {
            for problem in LogSchema.problems(of: line) { Issue.record(Comment(rawValue: problem)) }
        }
    }

    @Test("The project's own client joins over wss:// by host name and by IP address when it trusts the CA")
    func peerOverTLS() async throws {
        let server = try ServerProcess(["--tls-cert", files.certificate, "--tls-key", files.key])
        let context = try WebSocketClientContext(configuration: .init(serverTrust: .certificates(path: files.ca)))
        defer { context.stop() }
        for (host, name) in [("localhost", "ada"), ("127.0.0.1", "bob")] {
            let peer = try await TestPeer.connect(url: "wss://\(host):\(server.port)/", context: context)
            let welcome = try await peer.hello(room: "secure", name: name, role: .reader)
            #expect(welcome.room == "secure")
            #expect(welcome.readers.map(\.name).contains(name))
            peer.close()
        }
        #expect(server.stop() == 0)
    }

    @Test("Unusable TLS files stop neonsyncd before it listens: exit 1, a sentence on stderr, a start_failed line")
    func unusableFiles() throws {
        let missing = files.directory + "/missing.pem"
        let cases: [([String], String)] = [
            (["--tls-cert", missing, "--tls-key", files.key],
             "cannot use the TLS certificate \(missing): No such file or directory"),
            (["--tls-cert", files.request, "--tls-key", files.key],
             "cannot use the TLS certificate \(files.request): it holds no PEM certificate (no start line)"),
            (["--tls-cert", files.certificate, "--tls-key", files.directory],
             "cannot use the TLS private key \(files.directory): it is a directory, not a file"),
            (["--tls-cert", files.certificate, "--tls-key", files.strayKey],
             "the TLS private key \(files.strayKey) does not belong to the certificate \(files.certificate); give the key that was made together with that certificate"),
        ]
        let data = NSTemporaryDirectory() + "neonsync-test-tls-data-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        for (flags, sentence) in cases {
            let run = try runDaemon(["--port", "0", "--data", data, "--log", "-"] + flags)
            #expect(run.status == 1)
            #expect(run.err == "neonsyncd: \(sentence)\n")
            let logged = run.out.split(separator: "\n").compactMap { ServerProcess.json(String($0)) }
            #expect(logged.map { $0["event"] as? String } == ["start_failed"])
            #expect(logged.first?["error"] as? String == sentence)
        }
    }

    @Test("Bad TLS and Origin flags exit 2 with a sentence naming the flag")
    func badFlags() throws {
        let cases: [([String], String)] = [
            (["--tls-cert", files.certificate],
             "neonsyncd: --tls-cert and --tls-key go together: add --tls-key to serve wss://, or drop the other to serve ws://\n"),
            (["--tls-key", files.key],
             "neonsyncd: --tls-cert and --tls-key go together: add --tls-cert to serve wss://, or drop the other to serve ws://\n"),
            (["--allow-origin", "https://app.example.com/page"],
             "neonsyncd: --allow-origin https://app.example.com/page is not an origin; write scheme://host[:port] with no path, e.g. https://app.example.com, or * for every origin\n"),
        ]
        for (flags, said) in cases {
            let run = try runDaemon(["--port", "0"] + flags)
            #expect(run.status == 2)
            #expect(run.err == said)
            #expect(run.out.isEmpty)
        }
    }
}
