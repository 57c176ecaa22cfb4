import Foundation
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("Metrics deploy files", .ownThreads)
struct MetricsDeployTests {
    static let deploy = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy")

    @Test("the Prometheus scrape config scrapes every node of deploy/systemd at /metrics: the single unit's port and each instance's")
    func scrapeConfig() throws {
        let text = try String(contentsOf: Self.deploy.appendingPathComponent("prometheus/prometheus.yml"), encoding: .utf8)
        #expect(text.contains("metrics_path: /metrics"))
        let targets = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("- ") && !$0.hasPrefix("- job_name") && !$0.hasPrefix("- targets") }
        #expect(targets == ["- 127.0.0.1:7681", "- 127.0.0.1:7682"])
    }

    @Test("the Grafana dashboard is valid JSON whose every query names a metric that a real node's /metrics serves, one node's and a cluster node's")
    func dashboard() async throws {
        let data = try Data(contentsOf: Self.deploy.appendingPathComponent("grafana/neonsync-dashboard.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(json["panels"] as? [[String: Any]])
        #expect(panels.count >= 7)
        let redis = try RedisProcess()
        let single = try ServerProcess()
        let node = try ServerProcess(["--redis", redis.url, "--node", "scraped"])
        var series: Set<String> = []
        for server in [single, node] {
            let scraped = try httpRequest(port: server.port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(scraped.status == 200)
            series.formUnion(try Exposition(scraped.body).families.values.flatMap(\.samples).map(\.name))
        }
        #expect(await single.stopped() == 0)
        #expect(await node.stopped() == 0)
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
                       "neonsync_broadcast_fanout_seconds_bucket", "neonsync_outbound_queue_bytes", "neonsync_store_commit_seconds_bucket",
                       "neonsync_redis_connected", "neonsync_redis_command_seconds_bucket", "neonsync_redis_delivery_lag_seconds_bucket"] {
            #expect(queried.contains(family), "no panel queries \(family)")
        }
    }
}
