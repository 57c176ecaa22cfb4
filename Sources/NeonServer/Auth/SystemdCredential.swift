import Glibc

/// Files systemd hands a service with `LoadCredential=`: it copies them
/// into `$CREDENTIALS_DIRECTORY`, read-only, readable by that service only.
/// On a file system with ACLs it grants the service's user read access
/// with an ACL entry, whose mask then shows in the group bits of the mode
/// (`r--r-----`) although no group may read it; such a file is as private
/// as a `chmod 600` one.
enum SystemdCredential {
    /// Whether `path` is a file directly in this service's credentials
    /// directory.
    static func contains(_ path: String) -> Bool {
        guard let directory = getenv("CREDENTIALS_DIRECTORY").map({ String(cString: $0) }), !directory.isEmpty,
              let slash = path.lastIndex(of: "/") else { return false }
        return canonical(String(path[..<slash])) == canonical(directory)
    }

    private static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
