import Foundation
import Testing

/// What a binary's `--help` says, and the flags it lists: read by the tests
/// that hold the documents' flag tables and the man pages to `--help`.
public enum HelpFlags {
    /// The flags a `--help` text lists: the first words of lines indented by
    /// exactly two spaces that start with a dash (`-h, --help` is both), and
    /// every flag on a line that starts with "usage:".
    public static func flags(inHelp help: String) -> Set<String> {
        var flags: Set<String> = []
        for line in help.components(separatedBy: "\n") {
            if line.lowercased().hasPrefix("usage:") {
                flags.formUnion(line.matches(of: /--[a-z0-9][a-z0-9-]*/).map { String($0.output) })
            } else if line.hasPrefix("  -") {
                var head = String(line.dropFirst(2))
                // A short flag before the long one: `-h, --help`, `-x, --exec`.
                if let short = head.prefixMatch(of: #/-[A-Za-z0-9], /#) {
                    flags.insert(String(short.output.dropLast(2)))
                    head = String(head.dropFirst(4))
                }
                if let flag = head.prefixMatch(of: /--?[a-z0-9][a-z0-9-]*/) { flags.insert(String(flag.output)) }
            }
        }
        return flags
    }

    /// Runs `binary` with `arguments` and returns its standard output.
    public static func help(_ binary: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.runUnblocked()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit()
        #expect(process.finalStatus == 0, "\(binary.lastPathComponent) \(arguments.joined(separator: " ")) exits 0")
        return String(decoding: data, as: UTF8.self)
    }
}
