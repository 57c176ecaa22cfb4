import Glibc
import NeonCore

extension SQLiteStore {
    /// Creates `path` and any missing parents (like `mkdir -p`, each one
    /// mode 700 whatever the umask), or checks that the existing one is a
    /// directory.
    static func createDirectory(_ path: String) throws(NeonError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) == 0 {
                chmod(prefix, 0o700)
            } else if errno != EEXIST {
                throw NeonError("cannot create the data directory \(path): \(String(cString: strerror(errno))) — check that --data points to a directory this user can write")
            }
            prefix += "/"
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw NeonError("cannot use \(path) as the data directory: it is not a directory — point --data at a directory")
        }
    }

    /// Creates the database file empty with mode 600 when it is missing, so
    /// SQLite (which gives `-wal` and `-shm` the database file's mode) never
    /// creates any of the three readable by others.
    static func createPrivateFile(_ path: String) throws(NeonError) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            guard errno == EEXIST else {
                throw NeonError("cannot create the store \(path): \(String(cString: strerror(errno))) — check that --data points to a directory this user can write")
            }
            return
        }
        fchmod(fd, 0o600)
        Glibc.close(fd)
    }

    /// Sets mode 600 on the write-ahead log and shared-memory files of
    /// `path`, where they exist (SQLite creates them with the database
    /// file's mode; this holds even for a database made by an older server).
    static func restrictCompanionFiles(of path: String) {
        for suffix in ["-wal", "-shm"] {
            chmod(path + suffix, 0o600)
        }
    }

    /// Refuses a data directory, or a database file in it, that users other
    /// than the owner may read or write: the store holds every room's
    /// document and draft. Missing ones pass (they are created private).
    public static func checkPrivate(directory: String) throws(NeonError) {
        var status = stat()
        if stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_mode & 0o077 != 0 {
            throw NeonError("the data directory \(directory) can be read or entered by other users (mode \(String(status.st_mode & 0o777, radix: 8))); run chmod 700 \(directory)")
        }
        let file = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
        for path in [file, file + "-wal", file + "-shm"] where stat(path, &status) == 0 && status.st_mode & 0o077 != 0 {
            throw NeonError("the store \(path) can be read or written by other users (mode \(String(status.st_mode & 0o777, radix: 8))); run chmod 600 \(path)")
        }
    }
}
