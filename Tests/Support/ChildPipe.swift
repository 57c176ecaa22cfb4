import Foundation
import NeonLock

/// A pipe for a child's standard output or error whose two ends are
/// close-on-exec from the moment they exist.
///
/// Foundation's `Pipe` makes inheritable descriptors, and on Linux
/// `Process.run` closes the other descriptors of its child by counting up
/// to the highest one open when it prepares the spawn. A pipe another test
/// thread opens in the meantime (a higher number) is inherited by that
/// child: a Redis, a server or a script that lives on for the rest of its
/// test. The pipe's write end then stays open after the program that owns it
/// exits, and reading it to the end waits for a stranger (StopTests saw a
/// stopped node's pipes stay open for 10 s). Here no child inherits the
/// pipe but the one it is handed to, as its descriptor 1 or 2 (`dup2` clears
/// close-on-exec on the copy).
public final class ChildPipe: Sendable {
    /// The end this process reads; closed when the handle goes.
    public let reading: FileHandle
    /// The end handed to the child; close it with ``closeWritingEnd()`` once
    /// the child has started (or failed to).
    public let writing: FileHandle
    private let writingOpen = Locked(true)

    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard Self.pipe2(&ends, O_CLOEXEC) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE)
        }
        reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
    }

    /// Closes this process's copy of the write end, so that reading sees
    /// the end of the pipe when the child (its one other holder) exits.
    /// Closes it once, however often it is called.
    public func closeWritingEnd() {
        let wasOpen = writingOpen.withLock { open in
            defer { open = false }
            return open
        }
        if wasOpen { close(writing.fileDescriptor) }
    }

    deinit { closeWritingEnd() }

    /// glibc's `pipe2`, which Swift's Glibc module does not import.
    private static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else {
            fatalError("glibc has no pipe2")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()
}
