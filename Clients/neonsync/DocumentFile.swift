import Glibc
import NeonCore

/// Reads a document file for `read` and `present`, with errors that name
/// the file and the reason.
enum DocumentFile {
    /// The format a file name suggests: .md/.markdown → Markdown, .json → the
    /// catalog, anything else → plain text.
    static func format(of path: String) -> DocumentFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".md") || lower.hasSuffix(".markdown") || lower.hasSuffix(".mdown") { return .markdown }
        if lower.hasSuffix(".json") { return .catalog }
        return .text
    }

    /// The `file://HOST/DIR/` URL of the directory `path` is in, which the
    /// publisher's relative links resolve against; nil when it cannot be
    /// found.
    static func directoryURL(of path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        var directory = String(cString: real)
        guard let slash = directory.lastIndex(of: "/") else { return nil }
        directory = String(directory[...slash])
        var host = [CChar](repeating: 0, count: 256)
        let name = gethostname(&host, host.count - 1) == 0 ? String(cString: host) : ""
        return "file://" + name + directory
    }

    /// The directory `path` is in, as a path; nil when it cannot be found.
    static func directory(of path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        let full = String(cString: real)
        guard let slash = full.lastIndex(of: "/") else { return nil }
        return slash == full.startIndex ? "/" : String(full[..<slash])
    }

    /// Why `bytes` are no text document though they are UTF-8: a NUL byte,
    /// which no text editor writes (`grep` calls such a file binary). Nil
    /// for text.
    static func binaryProblem(_ bytes: [UInt8]) -> String? {
        guard let at = bytes.firstIndex(of: 0) else { return nil }
        return "holds a NUL byte (at byte \(at + 1)), so it is a binary file, not a text document"
    }

    /// Reads `path` in chunks, reporting (bytes read, total) after each.
    static func load(_ path: String, progress: (Int, Int) -> Void) throws(NeonError) -> DocumentInfo {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw NeonError.usage("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw NeonError.usage("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw NeonError.usage("\(path) is a directory; give a Markdown, text or catalog JSON file")
        }
        let total = Int(info.st_size)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw NeonError.usage("cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes += chunk[0..<n]
            progress(bytes.count, max(total, bytes.count))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw NeonError.usage("\(path) is not UTF-8 text; convert it (e.g. iconv -t UTF-8) and try again")
        }
        if let problem = binaryProblem(bytes) {
            throw NeonError.usage("\(path) \(problem); give a Markdown, text or catalog JSON file")
        }
        let title = path.split(separator: "/").last.map(String.init) ?? path
        let format = format(of: path)
        do {
            _ = try Document.parse(title: title, format: format, text: text)
        } catch {
            throw error.at("\(path) cannot be read as \(format.rawValue)").exiting(with: NeonError.usageStatus)
        }
        return DocumentInfo(title: title, format: format, text: text)
    }
}
