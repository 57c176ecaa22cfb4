import Foundation
import Glibc
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("neonsyncd --unix: a Unix domain socket beside TCP", .serialized, .ownThreads)
struct UnixSocketTests {
    private static func scratch() -> String {
        let directory = NSTemporaryDirectory() + "nsu-\(UUID().uuidString.prefix(8))"
        mkdir(directory, 0o755)
        return directory
    }

    /// The JSON object of the next text frame.
    private static func next(_ raw: RawWebSocket) throws -> [String: Any] {
        let frame = try raw.receive()
        return try #require(ServerProcess.json(String(decoding: frame.payload, as: UTF8.self)))
    }

    private static func hello(_ raw: RawWebSocket, room: String, name: String) throws -> [String: Any] {
        try raw.send(text: #"{"type":"hello","room":"\#(room)","name":"\#(name)","role":"reader"}"#)
        var message = try next(raw)
        while message["type"] as? String != "welcome" { message = try next(raw) }
        return message
    }

    /// This process's login name.
    private static var loginName: String {
        String(cString: getpwuid(getuid())!.pointee.pw_name)
    }

    @Test("two clients over the socket join under the login name, verified, whatever their hello says; a TCP member is not verified; the socket file has --unix-mode")
    func twoClientsOverTheSocket() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/neonsync.sock"
        let server = try ServerProcess(["--unix", path, "--unix-mode", "0660"])
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o660)
        let ada = try RawWebSocket(unixPath: path)
        let first = try Self.hello(ada, room: "shared", name: "ada")
        #expect((first["readers"] as? [[String: Any]])?.count == 1)
        let bob = try RawWebSocket(unixPath: path)
        let second = try Self.hello(bob, room: "shared", name: "bob")
        let readers = try #require(second["readers"] as? [[String: Any]])
        #expect(readers.count == 2)
        for reader in readers {
            #expect(reader["name"] as? String == Self.loginName)
            #expect(reader["verified"] as? Bool == true)
        }
        let tcp = try RawWebSocket(port: server.port)
        let third = try Self.hello(tcp, room: "shared", name: "carol")
        let all = try #require(third["readers"] as? [[String: Any]])
        #expect(all.count == 3)
        let carol = try #require(all.first { $0["name"] as? String == "carol" })
        #expect(carol["verified"] == nil)
        #expect(all.filter { $0["verified"] as? Bool == true }.count == 2)
        #expect(server.stop() == 0)
    }

    @Test("neonsync reaches the server over unix:PATH, also as a later entry of a failover list after a dead socket")
    func clientOverTheSocket() async throws {
        let path = Self.scratch() + "/neonsync.sock"
        let server = try ServerProcess(["--unix", path])
        let ada = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "over-unix", name: "ada", role: .reader)
        let listed = try runClient(["rooms", "--server", "unix:\(path)"])
        #expect(listed.status == 0 && listed.out.contains("over-unix"), "\(listed.err)")
        let failover = try runClient(["rooms", "--server", "unix:\(path).dead,unix:\(path)"])
        #expect(failover.status == 0 && failover.out.contains("over-unix"), "\(failover.err)")
        let tls = try runClient(["rooms", "--server", "wss+unix:\(path)"])
        #expect(tls.status == 2, "\(tls.err)")
    }

    @Test("a socket another server listens on is refused with exit 1; a stale one is replaced")
    func staleAndLiveSockets() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/neonsync.sock"
        let server = try ServerProcess(["--unix", path])
        let refused = try runDaemon(["--port", "0", "--data", directory + "/second", "--unix", path])
        #expect(refused.status == 1)
        #expect(refused.err.contains("another server is listening on \(path); stop it, or choose another --unix path"))
        #expect(server.stop(signal: SIGKILL) != 0)
        // A stale socket file: bound, nobody listening.
        if access(path, F_OK) != 0 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                for (i, byte) in path.utf8.enumerated() { bytes[i] = byte }
            }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            close(fd)
        }
        let again = try ServerProcess(["--unix", path])
        let raw = try RawWebSocket(unixPath: path)
        _ = try Self.hello(raw, room: "again", name: "ada")
        #expect(again.stop() == 0)
    }

    @Test("an unknown --unix-group is refused with a sentence and exit 2")
    func unknownGroup() throws {
        let result = try runDaemon(["--unix", "/tmp/x.sock", "--unix-group", "no-such-group-18"])
        #expect(result.status == 2)
        #expect(result.err.contains("--unix-group no-such-group-18 is not a group on this host"))
    }

    @Test("another user cannot connect to a 0660 socket",
          .disabled(if: !canDropPrivileges, "needs root and /usr/bin/setpriv to run a command as nobody"))
    func otherUserCannotConnect() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/neonsync.sock"
        let server = try ServerProcess(["--unix", path, "--unix-mode", "0660"])
        let script = "import socket; s = socket.socket(socket.AF_UNIX); s.connect('\(path)')"
        let asNobody = try runProgram(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                      ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c", script])
        #expect(asNobody.status != 0)
        #expect(asNobody.err.contains("PermissionError"))
        let asOwner = try runProgram(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script])
        #expect(asOwner.status == 0)
        #expect(server.stop() == 0)
    }
}
