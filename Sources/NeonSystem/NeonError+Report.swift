import Glibc
import NeonCore

extension NeonError {
    /// The one way a command of `neonsync` or `neonsyncd` ends on an error:
    /// `program: places: sentence; advice` on standard error, then `footer`
    /// lines (a usage synopsis) if any; returns the exit status to end with.
    public func report(as program: String, footer: String? = nil) -> Int32 {
        StandardStreams.write("\(program): \(description)\n" + (footer.map { $0 + "\n" } ?? ""), to: STDERR_FILENO)
        return exitStatus
    }
}
