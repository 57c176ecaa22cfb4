import Glibc
import NeonCore
import NeonRender

/// Watches the file a program shows (`read FILE`, `present FILE`, `notes
/// FILE`) for new versions, with inotify on the file's directory, so that
/// editors which save by writing a new file and renaming it over the old
/// one (vim, most IDEs) are seen as well as writes in place (`>>`, `cp`).
/// The runtime polls its descriptor beside the terminal's; every change to
/// the file pushes the moment to read it `settle` later, so a burst of
/// writes is read once (but at least once a second while a burst goes on).
/// Main thread only, as the runtime is.
final class FileWatcher {
    /// How long the file must have been left alone before it is read.
    static let settle: Duration = .milliseconds(150)
    /// The longest a burst of writes postpones the read.
    static let longestBurst: Duration = .seconds(1)
    /// The largest file read (a server takes 4 MiB by default).
    static let maximumBytes = 64 * 1024 * 1024

    let path: String
    let descriptor: Int32
    private let name: [UInt8]
    /// When to read the file: the end of the burst of changes seen.
    private(set) var due: Duration?
    private var burstStart: Duration?

    /// A watcher of `path`; nil when inotify cannot watch its directory
    /// (the file is then shown as it was when the command started).
    init?(path: String) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.descriptor = descriptor
        name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
    }

    deinit {
        close(descriptor)
    }

    /// Reads the events waiting: a change to the file (or lost events)
    /// sets the time to read it.
    func drain(at now: Duration) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.load(fromByteOffset: offset + 4, as: UInt32.self), Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 || Array(nameBytes) == name { changed(at: now) }
                offset += header + length
            }
        }
    }

    private func changed(at now: Duration) {
        let start = burstStart ?? now
        burstStart = start
        due = min(now + Self.settle, start + Self.longestBurst)
    }

    /// Once the burst has settled: the file's text and the local pictures
    /// it shows (`DocumentPictures`: those that travel, and why the others
    /// do not), or why the text cannot be read now. Nil before then.
    func take(at now: Duration) -> Result<(text: String, pictures: DocumentPictures), NeonError>? {
        guard let due, now >= due else { return nil }
        self.due = nil
        burstStart = nil
        return Self.read(path).flatMap { text in
            let title = path.split(separator: "/").last.map(String.init) ?? path
            let info = DocumentInfo(title: title, format: DocumentFile.format(of: path), text: text)
            guard let directory = DocumentFile.directory(of: path) else { return .success((text, DocumentPictures())) }
            return .success((text, DocumentPictures.collect(for: info, directory: directory)))
        }
    }

    static func read(_ path: String) -> Result<String, NeonError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "is gone" : "cannot be read (\(String(cString: strerror(errno))))"
            return .failure(NeonError(reason))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(NeonError("cannot be read (\(String(cString: strerror(errno))))")) }
        guard Int(info.st_size) <= maximumBytes else {
            return .failure(NeonError("is \(info.st_size) bytes, more than the \(maximumBytes / 1024 / 1024) MiB neonsync reads"))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(NeonError("cannot be read (\(String(cString: strerror(errno))))")) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > maximumBytes {
                return .failure(NeonError("is more than the \(maximumBytes / 1024 / 1024) MiB neonsync reads"))
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(NeonError("is not UTF-8 text"))
        }
        if let problem = DocumentFile.binaryProblem(bytes) { return .failure(NeonError(problem)) }
        return .success(text)
    }
}
