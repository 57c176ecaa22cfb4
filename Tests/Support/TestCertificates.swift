import Foundation

/// A throwaway certificate authority and the certificates tests serve,
/// made with the `openssl` command-line tool in a temporary directory (once
/// per test process; every file is PEM, every key unencrypted).
public struct TestCertificates: Sendable {
    /// The directory holding every file.
    public let directory: String
    /// The CA's certificate: what a client passes as --ca.
    public var ca: String { directory + "/ca.pem" }
    /// A server certificate signed by the CA for `localhost` and `127.0.0.1`.
    public var certificate: String { directory + "/server.pem" }
    /// The private key of `certificate`.
    public var key: String { directory + "/server.key" }
    /// A certificate signed by the CA for `elsewhere.example` only.
    public var elsewhereCertificate: String { directory + "/elsewhere.pem" }
    /// The private key of `elsewhereCertificate`.
    public var elsewhereKey: String { directory + "/elsewhere.key" }
    /// A private key that belongs to no certificate here.
    public var strayKey: String { directory + "/stray.key" }
    /// A certificate signing request: PEM, but not a certificate.
    public var request: String { directory + "/server.csr" }

    /// The set made for this test process; the error says what failed
    /// (for example that `openssl` is not installed).
    public static func shared() throws -> TestCertificates {
        try made.get()
    }

    private static let made: Result<TestCertificates, ServerProcessError> = {
        do {
            return .success(try TestCertificates())
        } catch let error as ServerProcessError {
            return .failure(error)
        } catch {
            return .failure(ServerProcessError("\(error)"))
        }
    }()

    private init() throws {
        directory = NSTemporaryDirectory() + "neonsync-test-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + curve + ["-days", "7", "-subj", "/CN=NeonSync test CA",
                     "-keyout", "ca.key", "-out", "ca.pem",
                     "-addext", "basicConstraints=critical,CA:TRUE",
                     "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try issue("server", names: "DNS:localhost,IP:127.0.0.1")
        try issue("elsewhere", names: "DNS:elsewhere.example")
        try openssl(["genpkey", "-algorithm", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", "stray.key"])
    }

    /// A key and a certificate signed by the CA naming `names` (a
    /// subjectAltName value).
    private func issue(_ name: String, names: String) throws {
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req"] + curve + ["-subj", "/CN=\(name)", "-keyout", "\(name).key", "-out", "\(name).csr"])
        try "subjectAltName=\(names)\nextendedKeyUsage=serverAuth\n"
            .write(toFile: "\(directory)/\(name).ext", atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                     "-CAcreateserial", "-days", "7", "-out", "\(name).pem", "-extfile", "\(name).ext"])
    }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = try ChildPipe()
        process.standardError = errors.writing
        do {
            try process.runUnblocked()
        } catch {
            errors.closeWritingEnd()
            throw ServerProcessError("cannot run openssl (\(error)); run ./deploy/setup.sh to install it")
        }
        errors.closeWritingEnd()
        let said = errors.reading.readDataToEndOfFile()
        process.waitForExit()
        guard process.finalStatus == 0 else {
            throw ServerProcessError("openssl \(arguments.joined(separator: " ")) failed: \(String(decoding: said, as: UTF8.self))")
        }
    }
}
