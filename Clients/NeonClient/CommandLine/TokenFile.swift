import Glibc

/// `--token-file FILE`: the room token read from a private file, so it is
/// not on the command line where every user of the machine sees it (`ps`).
public enum TokenFile {
    /// The one line printed on standard error when `--token T` is used.
    public static let commandLineWarning = """
        neonsync: WARNING: --token: the token is visible to other users of this machine (in ps); \
        use --token-file FILE or \(CommandOption.tokenEnvironment)
        """

    /// The token: the first line of `path`, without surrounding spaces.
    /// Throws a sentence naming the file and what to do when it is
    /// missing, not a regular file, readable by group or others, or empty.
    public static func read(_ path: String) throws(TokenFileProblem) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            throw TokenFileProblem("--token-file \(path) cannot be read (\(reason)); write the room token into it "
                + "and run chmod 600 \(path)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TokenFileProblem("--token-file \(path) is not a regular file; give a file that holds the room token")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o044 == 0 else {
            throw TokenFileProblem("--token-file \(path) can be read by "
                + (mode & 0o040 != 0 && mode & 0o004 != 0 ? "group and others" : mode & 0o040 != 0 ? "its group" : "others")
                + " (mode \(String(mode, radix: 8))); run chmod 600 \(path) so only you can read it, then try again")
        }
        guard let file = fopen(path, "r") else {
            let reason = String(cString: strerror(errno))
            throw TokenFileProblem("--token-file \(path) cannot be read (\(reason)); check that you own it, "
                + "and run chmod 600 \(path)")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while bytes.count < 64 * 1024 {
            let c = getc(file)
            if c == EOF || c == 0x0A { break }
            bytes.append(UInt8(truncatingIfNeeded: c))
        }
        let token = String(decoding: bytes, as: UTF8.self).trimmingSpaces
        guard !token.isEmpty else {
            throw TokenFileProblem("--token-file \(path) is empty (or its first line is); write the room token "
                + "(the last line neonsyncd token prints) on its first line, and run chmod 600 \(path)")
        }
        return token
    }
}

/// Why a `--token-file` cannot be used: a sentence for the user.
public struct TokenFileProblem: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

private extension String {
    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmingSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
