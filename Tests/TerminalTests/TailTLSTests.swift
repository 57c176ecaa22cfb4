import Foundation
import NeonClientTestSupport
import NeonTestSupport
import Testing

/// `neonsync tail` against a neonsyncd serving wss://: --ca, --insecure, and
/// what happens when the certificate is not trusted.
@Suite("neonsync over wss://", .serialized, .ownThreads)
struct TailTLSTests {
    let files: TestCertificates

    init() throws {
        files = try TestCertificates.shared()
    }

    private func tlsServer() throws -> ServerProcess {
        try ServerProcess(["--tls-cert", files.certificate, "--tls-key", files.key])
    }

    @Test("tail --ca joins over wss:// and prints the room")
    func trusted() throws {
        let server = try tlsServer()
        let tail = try TailProcess(["tail", "vault", "--server", "wss://localhost:\(server.port)/", "--ca", files.ca])
        let lines = try tail.waitForLines(1)
        #expect(lines[0].hasSuffix("watching vault: no readers; no document; draft rev 0, 0/280 ok"))
        #expect(tail.exitStatus(after: SIGTERM) == 0)
        #expect(tail.errorLines.isEmpty)
        #expect(server.stop() == 0)
    }

    @Test("Without --ca the certificate is refused: one sentence saying what to do, exit 5, no retries")
    func untrusted() throws {
        let server = try tlsServer()
        let url = "wss://localhost:\(server.port)/"
        let tail = try TailProcess(["tail", "vault", "--server", url])
        #expect(tail.exitStatus(timeout: 15) == 5)
        #expect(tail.errorLines == [
            "neonsync tail: cannot connect to \(url): the server's certificate is not trusted (unable to get local issuer certificate); pass --ca FILE with the CA that signed it, or --insecure for testing",
        ])
        #expect(tail.lines.isEmpty)
        #expect(server.events("connect").isEmpty)
        #expect(server.stop() == 0)
    }

    @Test("A certificate for another host name is refused with exit 5 and a sentence naming the host")
    func wrongHost() throws {
        let server = try ServerProcess(["--tls-cert", files.elsewhereCertificate, "--tls-key", files.elsewhereKey])
        let url = "wss://localhost:\(server.port)/"
        let tail = try TailProcess(["tail", "vault", "--server", url, "--ca", files.ca])
        #expect(tail.exitStatus(timeout: 15) == 5)
        #expect(tail.errorLines == [
            "neonsync tail: cannot connect to \(url): the server's certificate was not issued for localhost (hostname mismatch); connect with a host name the certificate holds, or pass --insecure for testing",
        ])
        #expect(server.stop() == 0)
    }

    @Test("--insecure joins an untrusted server and warns on standard error")
    func insecure() throws {
        let server = try tlsServer()
        let tail = try TailProcess(["tail", "vault", "--server", "wss://127.0.0.1:\(server.port)/", "--insecure"])
        let lines = try tail.waitForLines(1)
        #expect(lines[0].hasSuffix("watching vault: no readers; no document; draft rev 0, 0/280 ok"))
        #expect(tail.errorLines.first == "neonsync: WARNING: --insecure: the server's TLS certificate is NOT checked.")
        #expect(tail.errorLines.count == 3)
        #expect(tail.exitStatus(after: SIGTERM) == 0)
        #expect(server.stop() == 0)
    }

    @Test("Plain ws:// to a TLS port is a connection failure: tail gives up after 5 s with exit 4")
    func plainToTLSPort() throws {
        let server = try tlsServer()
        let tail = try TailProcess(["tail", "vault", "--server", "ws://127.0.0.1:\(server.port)/"])
        #expect(tail.exitStatus(timeout: 30) == 4)
        #expect(tail.errorLines.count == 1)
        #expect(tail.errorLines.first?.hasPrefix("neonsync tail: cannot reach ws://127.0.0.1:\(server.port)/ within 5 s") == true)
        #expect(server.stop() == 0)
    }

    @Test("The reader over wss://: with --ca it shows the document; without, the screen ends with the sentence and exit 5")
    func readerScreen() throws {
        let server = try tlsServer()
        let tmux = try Tmux()
        let client = TerminalEndToEndTests.client
        let url = "wss://localhost:\(server.port)/"
        try tmux.start("ada", columns: 100, rows: 30,
                       command: "\(client) read \(TerminalEndToEndTests.guide) --room vault --name ada --server \(url) --ca \(files.ca)")
        try tmux.waitFor("ada", "Welcome to NeonSync")
        // The pause keeps the pane alive until the test has read it.
        try tmux.start("eve", columns: 100, rows: 30,
                       command: "\(client) join vault --name eve --server \(url); status=$?; sleep 3; (exit $status)")
        let screen = try tmux.waitUntil("eve", "the sentence after the screen ended") { screen in
            screen.joined().filter { $0 != " " }.contains("--insecurefortesting")
        }
        // Compared without spaces: the terminal wraps the sentence at one.
        let sentence = "neonsync join: cannot connect to \(url): the server's certificate is not trusted (unable to get local issuer certificate); pass --ca FILE with the CA that signed it, or --insecure for testing"
        #expect(screen.joined().filter { $0 != " " }.contains(sentence.filter { $0 != " " }))
        _ = try tmux.waitUntil("eve", "eve's client to exit") { _ in (try? tmux.exitStatus("eve")) != nil }
        #expect(try tmux.exitStatus("eve") == 5)
        // The join's log line may follow what the client shows.
        #expect(server.waitForLog { $0["event"] as? String == "join" } != nil && server.events("join").count == 1)
        try tmux.sendKeys("ada", "q")
        _ = try tmux.waitUntil("ada", "ada's client to exit") { _ in (try? tmux.exitStatus("ada")) == 0 }
        #expect(server.stop() == 0)
    }

    @Test("Bad --ca and --insecure usage exits 2 with a sentence")
    func badFlags() throws {
        let missing = files.directory + "/nothing.pem"
        let cases: [([String], String)] = [
            (["tail", "vault", "--ca", files.ca, "--insecure"],
             "neonsync tail: --ca and --insecure contradict each other: --ca checks the certificate against FILE, --insecure checks nothing; give one"),
            (["tail", "vault", "--server", "wss://localhost:1/", "--ca", missing],
             "neonsync tail: --ca: cannot use the CA file \(missing): No such file or directory"),
            (["tail", "vault", "--server", "wss://localhost:1/", "--ca", files.strayKey],
             "neonsync tail: --ca: cannot use the CA file \(files.strayKey): it holds no PEM certificate (no certificate or crl found)"),
            (["replay", "x.log", "--insecure"],
             "neonsync replay: --insecure belongs to the commands that connect to a server, not to neonsync replay; see neonsync replay --help"),
        ]
        for (arguments, sentence) in cases {
            let process = try TailProcess(arguments)
            #expect(process.exitStatus() == 2)
            try process.waitForError(containing: sentence, timeout: 5)
            #expect(process.errorLines == [sentence])
        }
    }
}
