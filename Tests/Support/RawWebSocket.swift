/// A hand-rolled WebSocket client over ``RawSocket`` that can send what the
/// real client never does: fragmented messages and invalid UTF-8.
public final class RawWebSocket {
    public struct Frame: Equatable {
        public var fin: Bool
        public var opcode: UInt8
        public var payload: [UInt8]

        /// The close code of a close frame.
        public var closeCode: UInt16? {
            guard opcode == 0x8, payload.count >= 2 else { return nil }
            return UInt16(payload[0]) << 8 | UInt16(payload[1])
        }
    }

    public let socket: RawSocket

    /// Connects and completes the upgrade; fails unless the answer is 101.
    public convenience init(port: Int, subprotocol: String? = "neonsync.v1", receiveBuffer: Int32? = nil) throws {
        try self.init(socket: try RawSocket(port: port, receiveBuffer: receiveBuffer), host: "127.0.0.1:\(port)",
                      subprotocol: subprotocol)
    }

    /// Connects over the Unix domain socket at `path` and completes the upgrade.
    public convenience init(unixPath path: String, subprotocol: String? = "neonsync.v1") throws {
        try self.init(socket: try RawSocket(unixPath: path), host: "localhost", subprotocol: subprotocol)
    }

    /// Connects from the loopback address `source` with more request
    /// header lines (`X-Forwarded-For: 203.0.113.9`) and completes the upgrade.
    public convenience init(port: Int, from source: String, headers: [String]) throws {
        try self.init(socket: try RawSocket(port: port, from: source), host: "127.0.0.1:\(port)",
                      subprotocol: "neonsync.v1", headers: headers)
    }

    private init(socket: RawSocket, host: String, subprotocol: String?, headers: [String] = []) throws {
        self.socket = socket
        var request = "GET / HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for line in headers { request += line + "\r\n" }
        if let subprotocol {
            request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n"
        }
        try socket.write(request + "\r\n")
        let head = try socket.readHead()
        guard head.hasPrefix("HTTP/1.1 101") else {
            throw RawSocket.Failure(description: "upgrade refused: \(head)")
        }
    }

    /// Sends one masked frame (clients must mask).
    public func send(fin: Bool = true, opcode: UInt8, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126:
            frame.append(0x80 | UInt8(payload.count))
        case ..<65536:
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.write(frame)
    }

    /// Sends one text message in one frame.
    public func send(text: String) throws {
        try send(opcode: 0x1, Array(text.utf8))
    }

    /// Reads frames until a close frame, which it returns; `nil` when the
    /// stream ends (or stalls 5 s) without one. `frames` gets every other
    /// frame's payload, as text.
    public func readUntilClose(_ frames: inout [String]) -> Frame? {
        while let frame = try? receive() {
            if frame.opcode == 0x8 { return frame }
            frames.append(String(decoding: frame.payload, as: UTF8.self))
        }
        return nil
    }

    /// Sends `payload` as one message split into frames of `size` bytes.
    public func sendFragmented(opcode: UInt8, _ payload: [UInt8], fragmentSize size: Int) throws {
        var offset = 0
        var first = true
        repeat {
            let end = min(offset + size, payload.count)
            try send(fin: end == payload.count, opcode: first ? opcode : 0x0, Array(payload[offset..<end]))
            first = false
            offset = end
        } while offset < payload.count
    }

    /// Reads one unmasked server frame.
    public func receive() throws -> Frame {
        let header = try socket.read(exactly: 2)
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            length = try socket.read(exactly: 2).reduce(0) { $0 << 8 | Int($1) }
        } else if length == 127 {
            length = try socket.read(exactly: 8).reduce(0) { $0 << 8 | Int($1) }
        }
        return Frame(fin: header[0] & 0x80 != 0, opcode: header[0] & 0x0F, payload: try socket.read(exactly: length))
    }
}
