import Foundation
import Testing
@testable import NeonServer

@Suite("Metrics deploy files")
struct MetricsDeployTests {
    static let deploy = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy")

    @Test("the Prometheus scrape config targets neonsyncd's default port at /metrics")
    func scrapeConfig() throws {
        let text = try String(contentsOf: Self.deploy.appendingPathComponent("prometheus/prometheus.yml"), encoding: .utf8)
        #expect(text.contains("metrics_path: /metrics"))
        #expect(text.contains("127.0.0.1:7681"))
    }

    @Test("the Grafana dashboard is valid JSON whose every query names a metric the server exposes")
    func dashboard() throws {
        let data = try Data(contentsOf: Self.deploy.appendingPathComponent("grafana/neonsync-dashboard.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(json["panels"] as? [[String: Any]])
        #expect(panels.count >= 7)
        let exposed = try Exposition(ServerMetrics().exposition(MetricsGauges()))
        let series = Set(exposed.families.values.flatMap(\.samples).map(\.name))
        var queried: Set<String> = []
        for panel in panels {
            for target in panel["targets"] as? [[String: Any]] ?? [] {
                let expr = try #require(target["expr"] as? String)
                queried.formUnion(expr.matches(of: /neonsync_[a-z_]+/).map { String($0.output) })
            }
        }
        #expect(!queried.isEmpty)
        #expect(queried.subtracting(series).isEmpty, "unknown metrics: \(queried.subtracting(series).sorted())")
        for family in ["neonsync_connections_open", "neonsync_readers", "neonsync_messages_in_total", "neonsync_errors_total",
                       "neonsync_broadcast_fanout_seconds_bucket", "neonsync_outbound_queue_bytes", "neonsync_store_commit_seconds_bucket"] {
            #expect(queried.contains(family), "no panel queries \(family)")
        }
    }
}
