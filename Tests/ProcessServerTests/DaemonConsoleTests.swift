import Foundation
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("neonsyncd on the terminal: one line where it listens, no raw libwebsockets lines", .ownThreads)
struct DaemonConsoleTests {
    @Test("at start neonsyncd says on stderr where it listens (the real port with --port 0) and where its data is, even when the log goes to a file")
    func listeningLine() throws {
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = ServerProcess.binary
        process.arguments = ["--port", "0", "--data", directory.path + "/data", "--log", directory.path + "/log.jsonl"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.runUnblocked()
        defer {
            if !process.hasExited {
                kill(process.processIdentifier, SIGKILL)
                process.waitForExit()
            }
        }
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n"), Date() < deadline {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = try #require(text.split(separator: "\n").first.map(String.init))
        let match = try #require(line.wholeMatch(of: /neonsyncd: listening on ws:\/\/127\.0\.0\.1:(\d+)\/ \(data (.+)\)/))
        #expect(Int(match.1).map { $0 > 0 } == true, "the bound port, not 0: \(line)")
        #expect(String(match.2) == directory.path + "/data")
        kill(process.processIdentifier, SIGTERM)
        let stopBy = Date().addingTimeInterval(10)
        while !process.hasExited, Date() < stopBy { Thread.sleep(forTimeInterval: 0.01) }
        #expect(process.hasExited, "SIGTERM right after the line stops the server")
        if process.hasExited { #expect(process.finalStatus == 0) }
        let log = try String(contentsOfFile: directory.path + "/log.jsonl", encoding: .utf8)
        let start = log.split(separator: "\n").compactMap { ServerProcess.json(String($0)) }.first { $0["event"] as? String == "start" }
        #expect(start?["port"] as? Int == Int(match.1))
    }

    @Test("a port another server holds gives one sentence on stderr, with one service thread or three; with one (lws binds it), libwebsockets' own binding error only in the log (debug)",
          arguments: [1, 3])
    func takenPort(threads: Int) throws {
        let holder = try ServerProcess()
        let directory = try TemporaryDirectory()
        let result = try runDaemon(["--port", "\(holder.port)", "--data", directory.path + "/data",
                                    "--log", "-", "--log-level", "debug", "--threads", "\(threads)"])
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("neonsyncd: ") == true, "stderr: \(result.err)")
        #expect(!result.err.contains("E: "), "no raw libwebsockets line: \(result.err)")
        let lws = result.out.split(separator: "\n").compactMap { ServerProcess.json(String($0)) }
            .filter { $0["event"] as? String == "lws" }
        #expect(lines.first?.contains("\(holder.port)") == true, "the sentence names the port: \(result.err)")
        guard threads == 1 else { return }
        #expect(!lws.isEmpty && lws.allSatisfy { $0["level"] as? String == "debug" && $0["severity"] as? String != nil && $0["line"] as? String != nil })
    }
}
