import Glibc

extension SQLiteStore {
    /// Creates `path` and any missing parents (like `mkdir -p`), or checks
    /// that the existing one is a directory.
    static func createDirectory(_ path: String) throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw StoreError("cannot create the data directory \(path): \(String(cString: strerror(errno))) — check that --data points to a directory this user can write")
            }
            prefix += "/"
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError("cannot use \(path) as the data directory: it is not a directory — point --data at a directory")
        }
    }
}
