import Glibc

/// The login name of a user id, as the password database has it.
enum LoginName {
    /// `getpwuid_r`'s name for `uid`, or `uid<N>` when it has none.
    static func of(_ uid: UInt32) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(uid_t(uid), &entry, &buffer, buffer.count, &found)
        guard status == 0, let found, let name = found.pointee.pw_name else { return "uid\(uid)" }
        return String(cString: name)
    }
}
