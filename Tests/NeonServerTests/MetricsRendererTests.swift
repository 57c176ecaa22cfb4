import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import Testing

@Suite("Metrics renderer")
struct MetricsRendererTests {
    @Test("a histogram counts a value equal to a bound in that bucket and keeps an exact sum")
    func histogramBuckets() {
        var histogram = Histogram(boundsMicroseconds: [50, 100, 1_000])
        histogram.observe(.microseconds(40))
        histogram.observe(.microseconds(50))
        histogram.observe(.microseconds(51))
        histogram.observe(.milliseconds(3))
        #expect(histogram.cumulative == [2, 3, 3, 4])
        #expect(histogram.count == 4)
        #expect(histogram.sumNanoseconds == 3_141_000)
    }

    @Test("seconds are written as plain decimals without an exponent")
    func decimals() {
        #expect(PrometheusText.seconds(microseconds: 50) == "0.00005")
        #expect(PrometheusText.seconds(microseconds: 2_500) == "0.0025")
        #expect(PrometheusText.seconds(microseconds: 1_000_000) == "1")
        #expect(PrometheusText.seconds(nanoseconds: 3_141_000) == "0.003141")
        #expect(PrometheusText.seconds(nanoseconds: 0) == "0")
    }

    @Test("label values and help text are escaped so the strict parser reads them back")
    func escaping() throws {
        var out = PrometheusText()
        out.family("x_total", .counter, help: "one \\ two\nthree")
        out.sample("x_total", labels: [("v", "a\"b\\c\nd")], 7)
        #expect(out.text == "# HELP x_total one \\\\ two\\nthree\n# TYPE x_total counter\nx_total{v=\"a\\\"b\\\\c\\nd\"} 7\n")
        let parsed = try Exposition(out.text)
        #expect(parsed.value("x_total", ["v": "a\"b\\c\nd"]) == 7)
        #expect(parsed.families["x_total"]?.help == "one \\ two\nthree")
    }

    @Test("a fresh server's exposition parses strictly, every series present at zero, names follow the conventions")
    func freshExposition() throws {
        let parsed = try Exposition(ServerMetrics().exposition(MetricsGauges()))
        for name in parsed.order {
            #expect(name.hasPrefix("neonsync_"))
            let kind = try #require(parsed.families[name]?.kind)
            #expect((kind == .counter) == name.hasSuffix("_total"), "\(name)")
            if kind == .histogram { #expect(name.hasSuffix("_seconds")) }
        }
        #expect(parsed.value("neonsync_connections_open") == 0)
        #expect(parsed.value("neonsync_readers", ["role": "observer"]) == 0)
        #expect(parsed.value("neonsync_messages_in_total", ["type": "invalid"]) == 0)
        #expect(parsed.value("neonsync_messages_out_total", ["type": "welcome"]) == 0)
        #expect(parsed.value("neonsync_errors_total", ["code": "invalid_utf8"]) == 0)
        #expect(parsed.value("neonsync_broadcast_fanout_seconds_bucket", ["le": "0.00005"]) == 0)
        #expect(parsed.value("neonsync_store_commit_seconds_bucket", ["le": "1"]) == 0)
        #expect(parsed.value("neonsync_build_info", ["version": BuildStamp.version]) == 1)
        #expect(parsed.families["neonsync_errors_total"]?.samples.count == ErrorCode.allCases.count)
    }

    @Test("counts land in the series of their type and code; a broadcast counts once per recipient")
    func counting() throws {
        var metrics = ServerMetrics()
        metrics.connected()
        metrics.connected()
        metrics.received(bytes: 40, .scroll(top: 0, viewport: 10, content: 20, anchor: .top))
        metrics.received(bytes: 6, nil)
        metrics.refusedFrame()
        metrics.sent(ServerMessage(seq: 1, .error(ProtocolError(.invalidJSON, "no"))), bytes: 30, recipients: 1)
        metrics.sent(ServerMessage(seq: 2, .ack(rev: 1)), bytes: 20, recipients: 1)
        metrics.sent(ServerMessage(seq: 3, .cursor(CursorInfo(id: ClientID("c1"), position: 0, rev: 0))), bytes: 50, recipients: 3)
        metrics.broadcast(fanOut: .microseconds(70))
        metrics.committed(in: .milliseconds(2))
        let parsed = try Exposition(metrics.exposition(MetricsGauges(connections: 2, rooms: 1, readers: [.reader: 2],
                                                                     queuedFrames: 4, queuedBytes: 900)))
        #expect(parsed.value("neonsync_connections_total") == 2)
        #expect(parsed.value("neonsync_connections_open") == 2)
        #expect(parsed.value("neonsync_rooms") == 1)
        #expect(parsed.value("neonsync_readers", ["role": "reader"]) == 2)
        #expect(parsed.value("neonsync_readers", ["role": "presenter"]) == 0)
        #expect(parsed.value("neonsync_messages_in_total", ["type": "scroll"]) == 1)
        #expect(parsed.value("neonsync_messages_in_total", ["type": "invalid"]) == 2)
        #expect(parsed.value("neonsync_received_bytes_total") == 46)
        #expect(parsed.value("neonsync_messages_out_total", ["type": "error"]) == 1)
        #expect(parsed.value("neonsync_messages_out_total", ["type": "ack"]) == 1)
        #expect(parsed.value("neonsync_messages_out_total", ["type": "cursor"]) == 3)
        #expect(parsed.value("neonsync_sent_bytes_total") == 200)
        #expect(parsed.value("neonsync_broadcasts_total") == 1)
        #expect(parsed.value("neonsync_errors_total", ["code": "invalid_json"]) == 1)
        #expect(parsed.value("neonsync_broadcast_fanout_seconds_bucket", ["le": "0.00005"]) == 0)
        #expect(parsed.value("neonsync_broadcast_fanout_seconds_bucket", ["le": "0.0001"]) == 1)
        #expect(parsed.value("neonsync_broadcast_fanout_seconds_sum") == 0.00007)
        #expect(parsed.value("neonsync_store_commit_seconds_count") == 1)
        #expect(parsed.value("neonsync_outbound_queue_frames") == 4)
        #expect(parsed.value("neonsync_outbound_queue_bytes") == 900)
    }

    @Test("gauges count rooms and joined members by role from the hub")
    func gaugesFromHub() {
        var hub = Hub()
        _ = hub.apply(.received(ClientID("c1"), .hello(room: "r", name: "ada", role: .presenter)), at: .zero)
        _ = hub.apply(.received(ClientID("c2"), .hello(room: "r", name: "bob", role: .reader)), at: .zero)
        _ = hub.apply(.received(ClientID("c3"), .hello(room: "s", name: "eve", role: .observer)), at: .zero)
        let gauges = MetricsGauges(connections: 4, hub: hub)
        #expect(gauges == MetricsGauges(connections: 4, rooms: 2, readers: [.presenter: 1, .reader: 1, .observer: 1]))
    }
}
