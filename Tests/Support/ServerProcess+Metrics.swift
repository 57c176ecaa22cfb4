import Foundation
import Glibc

extension ServerProcess {
    /// The server's `GET /metrics` body, over a plain loopback socket.
    public func metricsText() throws -> String {
        let text = try httpGet(port: port, path: "/metrics")
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
