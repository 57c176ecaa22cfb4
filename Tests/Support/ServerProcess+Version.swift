import Foundation

extension ServerProcess {
    /// The versions this running server reports: its `start` log line's
    /// `version`, and every `neonsync_build_info` sample's `version` label
    /// in `GET /metrics` with the sample's value.
    public func reportedVersions() async throws -> (log: String?, metrics: [(version: String, value: String)]) {
        let start = await log { $0["event"] as? String == "start" }
        let prefix = "neonsync_build_info{version=\""
        let samples = try metricsText().split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { line in
            let rest = line.dropFirst(prefix.count)
            let end = rest.firstIndex(of: "\"") ?? rest.endIndex
            return (version: String(rest[..<end]), value: String(rest.split(separator: " ").last ?? ""))
        }
        return (start?["version"] as? String, samples)
    }
}
