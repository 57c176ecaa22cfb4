import Foundation
import Glibc

/// Whether a child process has exited, asked of the kernel.
///
/// Foundation learns that a child exited in a dispatch source that runs on
/// libdispatch's worker threads; while the suite's blocked tests hold those
/// threads, `Process.isRunning` stays true long after the exit, and every
/// wait built on it times out at once. `waitid` with `WNOWAIT` reads the
/// exit without reaping the child, so Foundation still reaps it and still
/// reports the same status.
public enum ChildExit {
    /// The exit status of `pid` (the signal's number when a signal ended
    /// it, as `Process.terminationStatus` gives), or nil while it runs.
    public static func status(of pid: Int32) -> Int32? {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
            // Already reaped by Foundation: it has the status.
            return errno == ECHILD ? -1 : nil
        }
        guard info._sifields._sigchld.si_pid == pid else { return nil }
        return info._sifields._sigchld.si_status
    }
}

extension Process {
    /// Whether the program has ended, from the kernel when Foundation has
    /// not noticed yet (see `ChildExit`).
    public var hasExited: Bool {
        !isRunning || ChildExit.status(of: processIdentifier) != nil
    }

    /// The exit status once the program ended (waiting, bounded, for
    /// Foundation to reap it so that its own status agrees), nil while it runs.
    public var exitStatus: Int32? {
        if !isRunning { return terminationStatus }
        guard let status = ChildExit.status(of: processIdentifier) else { return nil }
        guard status == -1 else { return status }
        // Reaped this instant: Foundation is recording the status.
        let deadline = Date().addingTimeInterval(1)
        while isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        return isRunning ? nil : terminationStatus
    }
}

extension Process {
    /// Blocks until the program has ended (as `waitUntilExit`, without
    /// waiting for Foundation to notice); returns its status.
    @discardableResult
    public func waitForExit() -> Int32 {
        while true {
            if let status = exitStatus { return status }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// The exit status of a program that has ended (it waits for the end).
    public var finalStatus: Int32 { waitForExit() }
}
