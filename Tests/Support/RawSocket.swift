import Glibc

/// A blocking TCP client on 127.0.0.1 for speaking raw HTTP and raw
/// WebSocket frames at the server. Every read times out after 5 s.
/// With a small `receiveBuffer` and no reads it is the slowest reader
/// there is: the server's writes back up after a few kilobytes.
public final class RawSocket {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let fd: Int32
    /// Bytes read but not yet consumed.
    private var pending: [UInt8] = []

    public convenience init(port: Int, receiveBuffer: Int32? = nil) throws {
        try self.init(port: port, receiveBuffer: receiveBuffer, from: nil)
    }

    /// Connects from the loopback address `source` (e.g. `127.0.0.2`: a
    /// client the server tells apart from one on 127.0.0.1).
    public init(port: Int, receiveBuffer: Int32? = nil, from source: String?) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                throw Failure(description: "bind(\(source)) failed: \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            throw Failure(description: "connect() failed: \(errno)")
        }
    }

    /// Connects to the Unix domain socket at `path` (same timeouts).
    public init(unixPath path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[i] = byte }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            throw Failure(description: "connect() to \(path) failed: \(String(cString: strerror(code)))")
        }
    }

    /// Also runs when an initializer throws (every stored property is set
    /// by then): the one place the descriptor is closed, so a failed
    /// connect never closes it twice (a second close would close whatever
    /// descriptor the process opened with that number meanwhile, e.g. one
    /// libwebsockets holds).
    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send() failed: \(errno)") }
            offset += sent
        }
    }

    public func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Reads more bytes into `pending`; false at end of stream or timeout.
    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        pending.append(contentsOf: buffer[..<count])
        return true
    }

    /// Takes exactly `count` bytes.
    public func read(exactly count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard fill() else { throw Failure(description: "stream ended after \(pending.count) of \(count) bytes") }
        }
        let bytes = Array(pending[..<count])
        pending.removeFirst(count)
        return bytes
    }

    /// Takes an HTTP head (through the blank line) as text.
    public func readHead() throws -> String {
        let marker: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = (0..<max(0, pending.count - 3)).first(where: { Array(pending[$0..<$0 + 4]) == marker }) {
                let head = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 4)
                return head
            }
            guard fill() else { throw Failure(description: "stream ended inside an HTTP head") }
        }
    }

    /// Closes the socket at once, before the object goes away.
    public func shutdown() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Reads (and ignores) until the peer closes; the seconds that took, or
    /// nil after `timeout`. Never answers a ping.
    public func secondsUntilClosed(timeout: Double) -> Double? {
        let started = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 1024)
        while started.duration(to: .now) < .seconds(timeout) {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else { continue }
            if recv(fd, &buffer, buffer.count, 0) <= 0 {
                let elapsed = started.duration(to: .now).components
                return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            }
        }
        return nil
    }

    /// `true` if the peer closed the stream (reads return 0) within the timeout.
    public func waitForEndOfStream() -> Bool {
        pending.removeAll()
        while fill() {
            pending.removeAll()
        }
        return errno != EAGAIN && errno != EWOULDBLOCK
    }
}

/// Parses `HTTP/1.1 200 OK` status lines and a `Content-Length` body.
public func httpRequest(port: Int, _ request: String, on socket: RawSocket? = nil) throws -> (status: Int, head: String, body: String) {
    let socket = try socket ?? RawSocket(port: port)
    try socket.write(request)
    let head = try socket.readHead()
    let statusLine = head.split(separator: "\r\n").first ?? ""
    let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? -1
    let length = head.split(separator: "\r\n").compactMap { line -> Int? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
        return Int(parts[1].trimmingPrefix(" "))
    }.first ?? 0
    let body = try socket.read(exactly: length)
    return (status, head, String(decoding: body, as: UTF8.self))
}
