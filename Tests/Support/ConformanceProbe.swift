import Foundation
import Glibc

/// RFC 6455 conformance cases on raw loopback sockets, every byte written
/// by hand, in the style of the Autobahn|Testsuite fuzzing client (and of
/// scripts/ws_conformance.py, which runs the same cases against other
/// servers). Blocking: call it from a dedicated thread (see ``onThread(_:)``).
public enum ConformanceProbe {
    /// What the server answered one case.
    public struct Answer: Sendable, Equatable, CustomStringConvertible {
        /// The close frame the server sent.
        public enum Close: Sendable, Equatable {
            /// None before the end of the stream (or the deadline).
            case none
            /// A close frame; `nil` when it carried no code.
            case code(UInt16?)
            /// A close frame with a 1-byte payload.
            case malformed
        }

        /// Handshake cases: the HTTP status, or nil without an answer.
        public var status: Int?
        /// Handshake cases: the `Sec-WebSocket-Version` response header.
        public var version: String?
        /// Payloads of the pongs that arrived.
        public var pongs: [[UInt8]] = []
        /// Text and binary messages that arrived.
        public var messages = 0
        public var close: Close = .none
        /// Seconds from the case's last byte until the server ended the
        /// TCP stream; nil when it was still open at the deadline.
        public var secondsToEnd: Double?

        public var description: String {
            var parts: [String] = []
            if let status { parts.append("HTTP \(status)") }
            if !pongs.isEmpty { parts.append("pongs of \(pongs.map(\.count)) bytes") }
            switch close {
            case .none: parts.append("no close frame")
            case .code(let code): parts.append(code.map { "close \($0)" } ?? "close without code")
            case .malformed: parts.append("close with 1 byte")
            }
            parts.append(secondsToEnd.map { "TCP ended after \(Int($0 * 1000)) ms" } ?? "TCP still open")
            return parts.joined(separator: ", ")
        }
    }

    static let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]

    /// One client frame; `length` overrides the announced payload length.
    public static func frame(_ opcode: UInt8, _ payload: [UInt8] = [], fin: Bool = true, rsv: UInt8 = 0,
                             masked: Bool = true, length: UInt64? = nil) -> [UInt8] {
        let count = length ?? UInt64(payload.count)
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
        let bit: UInt8 = masked ? 0x80 : 0
        if count < 126 {
            bytes.append(bit | UInt8(count))
        } else if count < 65536 {
            bytes += [bit | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(bit | 127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> (UInt64($0) * 8)) }
        }
        guard masked else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// A close frame with `code` (none when nil) and `reason`.
    public static func close(_ code: UInt16? = nil, _ reason: [UInt8] = []) -> [UInt8] {
        frame(0x8, code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] + reason } ?? [])
    }

    /// Upgrades a fresh connection, then sends `parts` one after another:
    /// after each part but the last it waits (at most 1 s) for a pong, as
    /// Autobahn does before it closes. Never answers a close frame.
    public static func run(port: Int, subprotocol: String? = "neonsync.v1", _ parts: [[UInt8]],
                           wait: Double = 3) throws -> Answer {
        let socket = try Wire(port: port)
        var request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        socket.send(Array((request + "\r\n").utf8))
        guard let head = socket.head(until: .now + .seconds(5)), head.hasPrefix("HTTP/1.1 101") else {
            throw ServerProcessError("the upgrade was refused")
        }
        var answer = Answer()
        for part in parts.dropLast() {
            socket.send(part)
            let until = ContinuousClock.now + .seconds(1)
            while answer.pongs.isEmpty, let (opcode, payload) = socket.frame(until: until) {
                if opcode == 0xA { answer.pongs.append(payload) } else { answer.messages += 1 }
            }
        }
        socket.send(parts.last ?? [])
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int(wait * 1000))
        while let (opcode, payload) = socket.frame(until: deadline) {
            if opcode == 0xA {
                answer.pongs.append(payload)
            } else if opcode == 0x8 {
                answer.close = payload.isEmpty ? .code(nil)
                    : payload.count == 1 ? .malformed : .code(UInt16(payload[0]) << 8 | UInt16(payload[1]))
                break
            } else {
                answer.messages += 1
            }
        }
        answer.secondsToEnd = socket.secondsToEnd(since: started, until: deadline)
        return answer
    }

    /// Sends `request` (an HTTP head) on a fresh connection; the status,
    /// `Sec-WebSocket-Version` header and when TCP ended.
    public static func handshake(port: Int, _ request: String, wait: Double = 3) throws -> Answer {
        let socket = try Wire(port: port)
        socket.send(Array(request.utf8))
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int(wait * 1000))
        var answer = Answer()
        if let head = socket.head(until: deadline) {
            let lines = head.split(separator: "\r\n")
            answer.status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
            answer.version = lines.dropFirst().compactMap { line -> String? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "sec-websocket-version" else { return nil }
                return parts[1].trimmingCharacters(in: .whitespaces)
            }.first
        }
        answer.secondsToEnd = socket.secondsToEnd(since: started, until: deadline)
        return answer
    }
}

/// Runs blocking `work` on a thread of its own and awaits it, so async
/// tests leave the (2-thread) cooperative pool free while sockets block.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// A TCP connection to 127.0.0.1 whose reads wait until a deadline.
private final class Wire {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerProcessError("socket() failed: \(errno)") }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            // deinit closes it: it runs when this initializer throws too.
            throw ServerProcessError("connect() failed: \(errno)")
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Sends everything it can; a server that already hung up is not an
    /// error here (the answer says what happened).
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Reads more into the buffer; false at the end of the stream (or a
    /// reset) or the deadline.
    private func fill(until deadline: ContinuousClock.Instant) -> Bool {
        guard !ended else { return false }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptor, 1, max(milliseconds, 1)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else {
            ended = true
            return false
        }
        buffer += chunk[..<count]
        return true
    }

    /// An HTTP head through its blank line.
    func head(until deadline: ContinuousClock.Instant) -> String? {
        let marker = Array("\r\n\r\n".utf8)
        while true {
            if buffer.count >= 4, let end = (0...buffer.count - 4).first(where: { Array(buffer[$0..<$0 + 4]) == marker }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// One server frame: its opcode and payload.
    func frame(until deadline: ContinuousClock.Instant) -> (UInt8, [UInt8])? {
        while true {
            if buffer.count >= 2 {
                var length = Int(buffer[1] & 0x7F)
                var start = 2
                if length == 126, buffer.count >= 4 {
                    length = Int(buffer[2]) << 8 | Int(buffer[3])
                    start = 4
                } else if length == 127, buffer.count >= 10 {
                    length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    start = 10
                }
                if length < 126 || start > 2, buffer.count >= start + length {
                    let frame = (buffer[0] & 0x0F, Array(buffer[start..<start + length]))
                    buffer.removeFirst(start + length)
                    return frame
                }
            }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// Seconds from `started` until the stream ended, discarding whatever
    /// else arrives; nil if it had not by `deadline`.
    func secondsToEnd(since started: ContinuousClock.Instant, until deadline: ContinuousClock.Instant) -> Double? {
        buffer.removeAll()
        while fill(until: deadline) {
            buffer.removeAll()
        }
        guard ended else { return nil }
        let elapsed = started.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
