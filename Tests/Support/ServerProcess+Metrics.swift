import Foundation
import Glibc

extension ServerProcess {
    /// The server's `GET /metrics` body, over a plain loopback socket.
    public func metricsText() throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerProcessError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ServerProcessError("cannot connect to port \(port) for /metrics") }
        let request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        return text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? text
    }

    /// One sample of the server's metrics: `name` with exactly `labels`
    /// (as written, `type="scroll"`), nil when the server has none.
    public func metric(_ name: String, labels: String = "") throws -> Double? {
        let sample = labels.isEmpty ? name + " " : name + "{" + labels + "} "
        return try metricsText().split(separator: "\n").first { $0.hasPrefix(sample) }
            .flatMap { Double($0.dropFirst(sample.count)) }
    }
}
