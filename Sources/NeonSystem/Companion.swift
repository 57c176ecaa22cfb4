import Glibc

/// A file that comes with an executable and is found from where the
/// executable is: beside it (a development build's .build/debug or
/// .build/release, where `swift build` makes every product), then in a
/// directory of its package beside the executable's own (for /usr/bin,
/// /usr/lib/neonsync or /usr/libexec/neonsync, where the Debian packages
/// put them). The highlighting plug-in and neonsync-bench are found so.
public enum Companion {
    /// The places `fileName` is looked for, first found first: beside
    /// `executable`, then in `installed` (`lib/neonsync`) beside its
    /// directory.
    public static func places(of fileName: String, beside executable: String, orIn installed: String) -> [String] {
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let parent = directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return ["\(directory)/\(fileName)", "\(parent)/\(installed)/\(fileName)"]
    }

    /// The running executable's path, symbolic links resolved.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
