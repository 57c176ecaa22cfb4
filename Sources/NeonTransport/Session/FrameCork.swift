import CLibWebSockets
import NeonTransportCore

/// Writes several queued server frames with one system call ("corking").
///
/// A connection that falls behind a busy room has many small frames
/// queued; writing each with its own `lws_write` costs one `send` per
/// frame. The cork frames them itself (server frames are not
/// masked: a FIN+opcode byte, the length, the payload) into one buffer and
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

    /// The header of an unmasked, final frame of `count` payload bytes
    /// below 64 KiB (larger ones never fit the buffer with another frame).
    static func headerSize(_ count: Int) -> Int {
        count < 126 ? 2 : 4
    }

    /// Frames the longest prefix of `queue` that fits in ``limit`` (at
    /// least two frames, or nothing) into the buffer; returns the frame
    /// count and the bytes to write from ``start``.
    func fill(from queue: OutboundQueue) -> (frames: Int, bytes: Int) {
        guard queue.count >= 2 else { return (0, 0) }
        var frames = 0
        var bytes = 0
        queue.forEachWaiting { frame in
            let header = Self.headerSize(frame.count)
            guard frame.count < 65_536, bytes + header + frame.count <= capacity else { return false }
            let out = storage + OutboundFrame.headroom + bytes
            out.storeBytes(of: 0x80 | (frame.kind == .text ? 0x1 : 0x2) as UInt8, as: UInt8.self)
            if header == 2 {
                out.storeBytes(of: UInt8(frame.count), toByteOffset: 1, as: UInt8.self)
            } else {
                out.storeBytes(of: 126 as UInt8, toByteOffset: 1, as: UInt8.self)
                out.storeBytes(of: UInt8(frame.count >> 8), toByteOffset: 2, as: UInt8.self)
                out.storeBytes(of: UInt8(frame.count & 0xFF), toByteOffset: 3, as: UInt8.self)
            }
            if frame.count > 0 {
                (out + header).copyMemory(from: frame.payloadStart, byteCount: frame.count)
            }
            bytes += header + frame.count
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
