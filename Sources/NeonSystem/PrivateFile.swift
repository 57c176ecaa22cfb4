import Glibc
import NeonCore

/// A secret kept in a file that only its owner may open: a room token
/// (`neonsync --token-file`), the token secret (`neonsyncd --secret-file`),
/// the Redis password (`--redis-password-file`). One rule for all of them:
/// the file is a regular file, and no permission bit of its group or of
/// others is set (mode & 0o077 == 0) — a file others may write is refused
/// as surely as one they may read, since whoever can write it chooses the
/// secret. A systemd credential is accepted as systemd made it (`trusted`).
///
/// Every refusal is a sentence naming the file, what is wrong and the
/// command that fixes it.
public struct PrivateFile: Sendable {
    public let path: String
    /// How sentences name the file: `--token-file /x`, `the secret file /x`.
    public let name: String
    /// What the file holds: `the room token`.
    public let holds: String
    /// What to write in it: `write the room token on its first line`.
    public let fill: String
    /// Group and other bits are not checked (a systemd credential).
    public let trusted: Bool

    public init(_ path: String, name: String, holds: String, fill: String, trusted: Bool = false) {
        self.path = path
        self.name = name
        self.holds = holds
        self.fill = fill
        self.trusted = trusted
    }

    /// The rule: nil when `mode` is private to its owner, else what the
    /// others may do (`can be read by its group`,
    /// `can be written by its group and read by others`).
    public static func exposure(ofMode mode: UInt32) -> String? {
        func acts(_ bits: UInt32) -> String? {
            let names = [(UInt32(4), "read"), (2, "written"), (1, "run")].filter { bits & $0.0 != 0 }.map(\.1)
            return names.isEmpty ? nil : names.joined(separator: " and ")
        }
        let group = acts((mode >> 3) & 7)
        let others = acts(mode & 7)
        switch (group, others) {
        case (nil, nil): return nil
        case let (group?, nil): return "can be \(group) by its group"
        case let (nil, others?): return "can be \(others) by others"
        case let (group?, others?) where group == others: return "can be \(group) by group and others"
        case let (group?, others?): return "can be \(group) by its group and \(others) by others"
        }
    }

    /// The whole file (at most `limit` bytes are read), once the rule holds.
    public func contents(limit: Int = 65_536) throws(NeonError) -> [UInt8] {
        let file = try open()
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let n = fread(&buffer, 1, min(buffer.count, limit - bytes.count), file)
            if n == 0 { break }
            bytes += buffer[0 ..< n]
        }
        return bytes
    }

    /// The first line, without its line ending, once the rule holds; an
    /// empty one is refused.
    public func firstLine() throws(NeonError) -> String {
        let file = try open()
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while bytes.count < 64 * 1024 {
            let c = getc(file)
            if c == EOF || c == 0x0A { break }
            bytes.append(UInt8(truncatingIfNeeded: c))
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { throw empty }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The refusal of a file with nothing (on its first line).
    var empty: NeonError {
        NeonError("\(name) is empty (or its first line is); \(fill), and run chmod 600 \(path)")
    }

    /// The file opened for reading, the rule checked on what was opened
    /// (not on the path, which could be replaced in between).
    private func open() throws(NeonError) -> UnsafeMutablePointer<FILE> {
        guard let file = fopen(path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw errno == ENOENT
                ? NeonError("\(name) cannot be read (\(reason)); \(fill), then run chmod 600 \(path)")
                : NeonError("\(name) cannot be read (\(reason)); check that you own it, and run chmod 600 \(path)")
        }
        var info = stat()
        guard fstat(fileno(file), &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            fclose(file)
            throw NeonError("\(name) is not a regular file; give a file that holds \(holds)")
        }
        let mode = UInt32(info.st_mode & 0o777)
        if !trusted, let exposure = Self.exposure(ofMode: mode) {
            fclose(file)
            throw NeonError("\(name) \(exposure) (mode \(String(mode, radix: 8))); "
                                   + "run chmod 600 \(path) so only you can read it, then try again")
        }
        return file
    }
}
