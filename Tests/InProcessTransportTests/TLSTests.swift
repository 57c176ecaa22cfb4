import NeonTestSupport
@testable import NeonTransport
@testable import NeonTransportCore
import Testing

/// wss:// between the project's own server and client, with a throwaway CA
/// made by the openssl CLI. Serialized: libwebsockets 4.1 fails TLS
/// handshakes in flight when another TLS-capable context is created.
@Suite("TLS: wss:// with verified certificates", .serialized, .ownThreads)
struct TLSTests {
    let files: TestCertificates

    init() throws {
        files = try TestCertificates.shared()
    }

    private func startTLSServer(_ hub: TestHub = TestHub()) throws -> (WebSocketServer, Int) {
        try hub.startServer(.init(tls: TLSConfiguration(certificatePath: files.certificate, privateKeyPath: files.key)))
    }

    private func context(_ trust: ServerTrust) throws -> WebSocketClientContext {
        try WebSocketClientContext(configuration: .init(connectTimeoutSeconds: 5, serverTrust: trust))
    }

    @Test("A client trusting the CA completes the handshake by name and by IP address, and messages echo")
    func trustedEcho() async throws {
        let (server, port) = try startTLSServer()
        defer { server.stop() }
        let context = try context(.certificates(path: files.ca))
        defer { context.stop() }
        for host in ["localhost", "127.0.0.1"] {
            let client = try await WebSocketClient.connect(url: "wss://\(host):\(port)/", subprotocol: "neonsync.v1", context: context)
            client.send(text: "over TLS to \(host)")
            #expect(try await client.receive() == .text("over TLS to \(host)"))
            client.close()
            _ = try await client.waitForClose()
        }
    }

    @Test("Without the CA the handshake is abandoned as untrusted and the server never sees a connection")
    func untrustedIssuer() async throws {
        let hub = TestHub()
        let (server, port) = try startTLSServer(hub)
        defer { server.stop() }
        let context = try context(.systemStore)
        defer { context.stop() }
        await #expect {
            _ = try await WebSocketClient.connect(url: "wss://localhost:\(port)/", context: context)
        } throws: { error in
            guard case TransportError.untrustedServer(let url, let rejection) = error else { return false }
            return url == "wss://localhost:\(port)/" && rejection.kind == .untrustedIssuer
                && rejection.code == 20 && rejection.detail == "unable to get local issuer certificate"
        }
        #expect(hub.state.withLock { $0.events }.isEmpty)
    }

    @Test("A certificate issued for another host name is refused as a host name mismatch")
    func hostnameMismatch() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer(.init(tls: TLSConfiguration(
            certificatePath: files.elsewhereCertificate, privateKeyPath: files.elsewhereKey)))
        defer { server.stop() }
        let context = try context(.certificates(path: files.ca))
        defer { context.stop() }
        for host in ["localhost", "127.0.0.1"] {
            await #expect {
                _ = try await WebSocketClient.connect(url: "wss://\(host):\(port)/", context: context)
            } throws: { error in
                guard case TransportError.untrustedServer(_, let rejection) = error else { return false }
                return rejection.kind == .hostnameMismatch
            }
        }
    }

    @Test("insecureAcceptAnything connects to a server no trusted CA vouches for")
    func insecure() async throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer(.init(tls: TLSConfiguration(
            certificatePath: files.elsewhereCertificate, privateKeyPath: files.elsewhereKey)))
        defer { server.stop() }
        let context = try context(.insecureAcceptAnything)
        defer { context.stop() }
        let client = try await WebSocketClient.connect(url: "wss://127.0.0.1:\(port)/", context: context)
        client.send(text: "unchecked")
        #expect(try await client.receive() == .text("unchecked"))
    }

    @Test("Plain ws:// to a TLS port fails as a connection failure, and the server keeps serving wss://")
    func plainToTLSPort() async throws {
        let (server, port) = try startTLSServer()
        defer { server.stop() }
        let context = try context(.certificates(path: files.ca))
        defer { context.stop() }
        await #expect {
            _ = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", context: context)
        } throws: { error in
            if case TransportError.connectFailed = error { return true }
            return false
        }
        let client = try await WebSocketClient.connect(url: "wss://localhost:\(port)/", context: context)
        client.send(text: "still here")
        #expect(try await client.receive() == .text("still here"))
    }

    @Test("wss:// to a plain ws:// server fails as a connection failure, not as an untrusted certificate")
    func tlsToPlainPort() async throws {
        let (server, port) = try TestHub().startServer()
        defer { server.stop() }
        let context = try context(.certificates(path: files.ca))
        defer { context.stop() }
        await #expect {
            _ = try await WebSocketClient.connect(url: "wss://127.0.0.1:\(port)/", context: context)
        } throws: { error in
            if case TransportError.connectFailed = error { return true }
            return false
        }
    }

    @Test("A plain HTTP request to a TLS port gets no HTTP answer")
    func plainHTTPToTLSPort() throws {
        let (server, port) = try startTLSServer()
        defer { server.stop() }
        #expect(throws: (any Error).self) {
            _ = try httpRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        }
    }

    @Test("A server with unusable certificate or key files refuses to start, naming the file and the reason")
    func badServerFiles() throws {
        let cases: [(TLSConfiguration, TransportError)] = [
            (TLSConfiguration(certificatePath: files.directory + "/missing.pem", privateKeyPath: files.key),
             .tlsCertificate(path: files.directory + "/missing.pem", reason: "No such file or directory")),
            (TLSConfiguration(certificatePath: files.certificate, privateKeyPath: files.directory),
             .tlsPrivateKey(path: files.directory, reason: "it is a directory, not a file")),
            (TLSConfiguration(certificatePath: files.request, privateKeyPath: files.key),
             .tlsCertificate(path: files.request, reason: "it holds no PEM certificate (no start line)")),
            (TLSConfiguration(certificatePath: files.certificate, privateKeyPath: files.strayKey),
             .tlsKeyMismatch(certificate: files.certificate, key: files.strayKey)),
        ]
        for (tls, expected) in cases {
            let server = WebSocketServer(configuration: .init(tls: tls), delegate: TestHub())
            #expect(throws: expected) { try server.start() }
            #expect(server.port == nil)
            #expect(throws: expected) { try tls.validate() }
        }
        let keyAsCertificate = TLSConfiguration(certificatePath: files.certificate, privateKeyPath: files.certificate)
        #expect {
            try keyAsCertificate.validate()
        } throws: { error in
            guard case TransportError.tlsPrivateKey(let path, let reason) = error else { return false }
            return path == files.certificate && reason.hasPrefix("it holds no PEM private key")
        }
    }

    @Test("A context made for ws:// only refuses wss:// URLs with a sentence")
    func plainContextRefusesSecureURLs() async throws {
        let context = try WebSocketClientContext()
        defer { context.stop() }
        await #expect(throws: TransportError.tlsNotConfigured("wss://localhost:1/")) {
            _ = try await WebSocketClient.connect(url: "wss://localhost:1/", context: context)
        }
    }

    @Test("A CA file that is missing or holds no certificate is refused when the client context is made")
    func badTrustFile() {
        #expect(throws: TransportError.tlsTrustFile(path: files.directory + "/none.pem", reason: "No such file or directory")) {
            _ = try WebSocketClientContext(configuration: .init(serverTrust: .certificates(path: files.directory + "/none.pem")))
        }
        #expect(throws: TransportError.tlsTrustFile(path: files.strayKey, reason: "it holds no PEM certificate (no certificate or crl found)")) {
            _ = try WebSocketClientContext(configuration: .init(serverTrust: .certificates(path: files.strayKey)))
        }
    }
}
