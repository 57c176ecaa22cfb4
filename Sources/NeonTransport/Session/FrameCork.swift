import CLibWebSockets
import NeonTransportCore

/// Writes several queued server frames with one system call ("corking").
///
/// A connection that falls behind a busy room has many small frames
/// queued; writing each with its own `lws_write` costs one `send` per
/// frame. The cork copies them, each already framed (``OutboundFrame/framed``:
/// server frames are not masked), into one buffer and
/// hands it to lws as raw bytes on the established WebSocket connection,
/// which lws sends as they are (buffering any part the socket did not take,
/// like any other write). Service thread only.
final class FrameCork {
    /// At most this many bytes go out in one corked write.
    static let limit = 64 * 1024

    private var storage: UnsafeMutableRawPointer
    private var capacity: Int

    init() {
        capacity = Self.limit
        storage = .allocate(byteCount: OutboundFrame.headroom + capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Frames the longest prefix of `queue` that fits in ``limit`` (at
    /// least two frames, or nothing) into the buffer; returns the frame
    /// count and the bytes to write from ``start``.
    func fill(from queue: OutboundQueue) -> (frames: Int, bytes: Int) {
        guard queue.count >= 2 else { return (0, 0) }
        var frames = 0
        var bytes = 0
        queue.forEachWaiting { frame in
            let framed = frame.framed
            guard frame.count < 65_536, bytes + framed.count <= capacity else { return false }
            (storage + OutboundFrame.headroom + bytes).copyMemory(from: framed.baseAddress!, byteCount: framed.count)
            bytes += framed.count
            frames += 1
            return true
        }
        return frames >= 2 ? (frames, bytes) : (0, 0)
    }

    /// Where the framed bytes start (with lws headroom before them).
    var start: UnsafeMutablePointer<UInt8> {
        (storage + OutboundFrame.headroom).assumingMemoryBound(to: UInt8.self)
    }
}
