import Foundation
import NeonTestSupport
import Testing

@Suite("The suite's own view of a child's exit", .ownThreads)
struct ChildExitTests {
    /// `sh -c SCRIPT`, started as the suite starts programs.
    func start(_ script: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.runUnblocked()
        return process
    }

    @Test("an exit status, and a signal's number, read from the kernel agree with what Foundation reports once it has reaped the child")
    func statusAgrees() throws {
        let exits = try start("exit 7")
        #expect(exits.waitForExit() == 7)
        exits.waitUntilExit()
        #expect(exits.terminationStatus == 7)

        let killed = try start("kill -TERM $$; sleep 5")
        #expect(killed.waitForExit() == SIGTERM)
        killed.waitUntilExit()
        #expect(killed.terminationReason == .uncaughtSignal && killed.terminationStatus == SIGTERM)
    }

    @Test("a running child has no status; a child started by the suite has no signal blocked")
    func runningAndUnblocked() throws {
        let sleeper = try start("exec sleep 5")
        #expect(sleeper.exitStatus == nil && !sleeper.hasExited)
        kill(sleeper.processIdentifier, SIGKILL)
        #expect(sleeper.waitForExit() == SIGKILL)

        // grep reads its own mask (a shell waiting for a child blocks every
        // signal until it sleeps in sigsuspend: its own would be a race).
        let pipe = Pipe()
        let masked = Process()
        masked.executableURL = URL(fileURLWithPath: "/bin/sh")
        masked.arguments = ["-c", "exec grep SigBlk /proc/self/status"]
        masked.standardOutput = pipe
        try masked.runUnblocked()
        let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(masked.waitForExit() == 0)
        #expect(line.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000", "\(line)")
    }
}
