import Foundation
import Glibc
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// Runs as the unprivileged `nobody` needs root and setpriv(1).
let canDropPrivileges = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

@Suite("Private by default: the data directory, the store and the log", .ownThreads)
struct PrivateDataTests {
    private static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    private static func scratch() -> String {
        NSTemporaryDirectory() + "neonsync-private-\(UUID().uuidString)"
    }

    @Test("a fresh data directory is 700 and the database and its -wal 600, whatever the umask (the store locks exclusively, so SQLite keeps no -shm file)")
    func freshModes() throws {
        // umask 0 for the server alone: the suite's own umask is every
        // concurrent test's, whose files would be made world-writable.
        let server = try ServerProcess([], launcher: ["/bin/sh", "-c", "umask 0; exec \"$@\"", "sh", ServerProcess.binary.path])
        let file = server.dataDirectory + "/neonsync.sqlite3"
        #expect(Self.mode(server.dataDirectory) == 0o700)
        #expect(Self.mode(file) == 0o600)
        #expect(Self.mode(file + "-wal") == 0o600)
        #expect(Self.mode(file + "-shm") ?? 0o600 == 0o600)
        #expect(server.stop() == 0)
    }

    @Test("the --log file is created 600 (not as the umask would make it), and an existing one is made 600")
    func logMode() throws {
        let path = Self.scratch() + ".log"
        defer { unlink(path) }
        // Under the suite's umask (022 here, which alone would give 644):
        // changing it would change every concurrent test's files.
        _ = try LogWriter(destination: .file(path), minimumLevel: .info)
        #expect(Self.mode(path) == 0o600)
        chmod(path, 0o644)
        _ = try LogWriter(destination: .file(path), minimumLevel: .info)
        #expect(Self.mode(path) == 0o600)
    }

    @Test("a data directory others may enter (0755) is refused at start with the chmod that fixes it")
    func sharedDirectoryRefused() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkdir(directory, 0o700) == 0)
        chmod(directory, 0o755)
        let result = try runDaemon(["--port", "0", "--data", directory])
        #expect(result.status == 1)
        #expect(result.err.contains("the data directory \(directory) can be read or entered by other users (mode 755); run chmod 700 \(directory)"))
    }

    @Test("a database others may read (0644) is refused at start with the chmod that fixes it")
    func sharedDatabaseRefused() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkdir(directory, 0o700) == 0)
        let file = directory + "/neonsync.sqlite3"
        #expect(FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o644]))
        chmod(file, 0o644)
        let result = try runDaemon(["--port", "0", "--data", directory])
        #expect(result.status == 1)
        #expect(result.err.contains("the store \(file) can be read or written by other users (mode 644); run chmod 600 \(file)"))
    }

    @Test("another user can read neither the database nor its directory",
          .disabled(if: !canDropPrivileges, "needs root and /usr/bin/setpriv to run a command as nobody"))
    func otherUserCannotRead() throws {
        let server = try ServerProcess()
        let file = server.dataDirectory + "/neonsync.sqlite3"
        let asNobody = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        let readFile = try runProgram(setpriv, asNobody + ["cat", file])
        #expect(readFile.status != 0)
        #expect(readFile.err.contains("Permission denied"))
        let list = try runProgram(setpriv, asNobody + ["ls", server.dataDirectory])
        #expect(list.status != 0)
        #expect(server.stop() == 0)
    }
}
