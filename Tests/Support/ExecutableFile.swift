import Foundation

/// Writes `text` to `path` as an executable (mode 755) the suite will run:
/// a stand-in for a system tool. The file is written through a descriptor
/// opened close-on-exec, so a process another test forks meanwhile never
/// carries it open for writing into the program it runs, and running the
/// file never fails with "text file busy" (ETXTBSY), which a script
/// ending in `|| true` would hide.
public func writeExecutable(_ text: String, to path: String) throws {
    try writeExecutable(bytes: Array(text.utf8), to: path)
}

/// Copies the program at `source` to `destination` as an executable, as
/// `writeExecutable` writes one (FileManager's copy writes through an
/// inheritable descriptor).
public func copyExecutable(_ source: URL, to destination: URL) throws {
    try writeExecutable(bytes: Array(try Data(contentsOf: source)), to: destination.path)
}

private func writeExecutable(bytes all: [UInt8], to path: String) throws {
    unlink(path)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    var bytes = all[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        bytes = bytes.dropFirst(written)
    }
    fchmod(descriptor, 0o755)
}
