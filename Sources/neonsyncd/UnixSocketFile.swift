import Glibc
import NeonCore

/// The `--unix` socket file: cleared when stale before the server binds,
/// given its mode and group after.
enum UnixSocketFile {
    /// Removes a socket file nothing listens on; refuses a live socket and
    /// anything that is not a socket (libwebsockets would remove it).
    static func clearStale(_ path: String) throws(NeonError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw NeonError("\(path) exists and is not a socket; remove it yourself if it is not needed, or choose another --unix path")
        }
        if isListening(path) {
            throw NeonError("another server is listening on \(path); stop it, or choose another --unix path")
        }
        guard unlink(path) == 0 else {
            throw NeonError("cannot remove the stale socket \(path): \(String(cString: strerror(errno))); remove it yourself, or choose another --unix path")
        }
    }

    /// Whether a connection to the socket at `path` is accepted.
    static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[i] = byte }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return status == 0
    }

    /// Sets the bound socket's mode and, when given, its group.
    static func setPermissions(_ path: String, mode: mode_t, group: (name: String, id: gid_t)?) throws(NeonError) {
        if let group, chown(path, uid_t.max, group.id) != 0 {
            throw NeonError("cannot give \(path) the group \(group.name): \(String(cString: strerror(errno))); run neonsyncd as a member of \(group.name) (or as root), or drop --unix-group")
        }
        guard chmod(path, mode) == 0 else {
            throw NeonError("cannot set mode \(String(mode, radix: 8)) on \(path): \(String(cString: strerror(errno))); check --unix-mode")
        }
    }
}
