import Foundation
import NeonTestSupport
import Testing

@Suite("An empty document in tmux", .serialized, .ownThreads)
struct EmptyDocumentTerminalTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path

    @Test("reading an empty file says \"empty document\" in the box, at 80x24 and 50x16", arguments: [(80, 24), (50, 16)])
    func emptyFile(columns: Int, rows: Int) throws {
        let file = NSTemporaryDirectory() + "neonsync-empty-\(UUID().uuidString).md"
        try "".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("ada", columns: columns, rows: rows,
                       command: "\(Self.client) read \(file) --room empty --name ada --server \(server.url)")
        let screen = try tmux.waitFor("ada", "100%", timeout: 20)
        let inBox = screen.filter { $0.hasPrefix("│") }
        #expect(inBox.contains { $0.contains("empty document") }, "\(screen.joined(separator: "\n"))")
        #expect(server.stop() == 0)
    }
}
