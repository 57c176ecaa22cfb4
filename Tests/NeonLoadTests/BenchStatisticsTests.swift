import NeonLoad
import Testing

@Suite("bench statistics, payloads and report")
struct BenchStatisticsTests {
    @Test("percentiles are nearest-rank: 1…100 gives p50 50, p90 90, p99 99, max 100")
    func nearestRank() {
        let summary = LatencySummary(nanoseconds: (1...100).reversed().map(Int64.init))
        #expect(summary.count == 100)
        #expect([summary.p50, summary.p90, summary.p99, summary.max] == [50, 90, 99, 100])
        #expect(summary.mean == 51) // 50.5 rounds half away from zero
    }

    @Test("small and skewed samples: every percentile is a measured value")
    func smallSamples() {
        #expect(LatencySummary(nanoseconds: []) == LatencySummary(nanoseconds: []))
        #expect(LatencySummary(nanoseconds: []).p99 == 0)
        let one = LatencySummary(nanoseconds: [7])
        #expect([one.p50, one.p90, one.p99, one.max] == [7, 7, 7, 7])
        let ten = LatencySummary(nanoseconds: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1000])
        #expect([ten.p50, ten.p90, ten.p99, ten.max] == [1, 1, 1000, 1000])
        #expect(LatencySummary.percentile(99.9, ofSorted: (1...1000).map(Int64.init)) == 999)
        #expect(LatencySummary.percentile(100, ofSorted: [3, 4]) == 4)
        #expect(LatencySummary.milliseconds(2_500_000) == 2.5)
    }

    @Test("a relay payload round-trips, is padded to the size, and a NeonSync frame is exactly that size")
    func relayPayload() {
        let payload = RelayPayload(sender: 3, sequence: 41, sentAt: 123_456_789_012)
        let text = payload.text(size: 64)
        #expect(text.utf8.count == 64)
        #expect(text.hasPrefix("b3.41.123456789012;x"))
        var copy = text
        #expect(copy.withUTF8 { RelayPayload.parse($0) } == payload)
        let frame = payload.neonSyncFrame(size: 64)
        #expect(frame.utf8.count == 64)
        #expect(frame.hasPrefix(#"{"type":"relay","data":"b3.41."#) && frame.hasSuffix(#"x"}"#))
        var broadcast = #"{"type":"relay","seq":9,"id":"c4","data":"b3.41.123456789012;xxxx"}"#
        #expect(broadcast.withUTF8 { RelayPayload.parseNeonSync($0) } == payload)
        #expect(payload.text(size: 4) == "b3.41.123456789012;")
        for bad in ["", "x3.1.2;", "b3.1.2", "b.1.2;", "b3;1.2;"] {
            var bad = bad
            #expect(bad.withUTF8 { RelayPayload.parse($0) } == nil, "\(bad)")
        }
    }

    @Test("the scanner reads types, strings and integers out of server JSON")
    func scan() {
        var text = #"{"type":"progress","seq":9,"id":"c3","progress":0.29,"percent":-29,"anchor":{"block":7,"offset":0}}"#
        text.withUTF8 { bytes in
            let scan = JSONScan(bytes)
            #expect(scan.hasType(JSONScan.type("progress")))
            #expect(!scan.hasType(JSONScan.type("prog")))
            #expect(scan.string(JSONScan.key("id", quoted: true)) == "c3")
            #expect(scan.int(JSONScan.key("block", quoted: false)) == 7)
            #expect(scan.int(JSONScan.key("percent", quoted: false)) == -29)
            #expect(scan.int(JSONScan.key("missing", quoted: false)) == nil)
            #expect(scan.string(JSONScan.key("seq", quoted: true)) == nil)
        }
    }

    @Test("the report prints an aligned table and one JSON line with the keys in order")
    func report() {
        var report = BenchReport()
        report.add("scenario", .text("follow"))
        report.add("delivered", .int(1_234_567))
        report.add("msgs_per_s", .number(60012.4, decimals: 0), unit: "msg/s")
        report.addLatency(LatencySummary(nanoseconds: [1_000_000, 2_500_000, 10_000_000]))
        report.add("ok", .flag(true))
        #expect(report.json == #"{"scenario":"follow","delivered":1234567,"msgs_per_s":60012,"p50_ms":2.500,"p90_ms":10.000,"p99_ms":10.000,"max_ms":10.000,"mean_ms":4.500,"ok":true}"#)
        let lines = report.table.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "  scenario       follow")
        #expect(lines[1] == "  delivered   1,234,567")
        #expect(lines[2] == "  msgs_per_s     60,012 msg/s")
        #expect(lines[3] == "  p50_ms          2.500 ms")
        #expect(report["delivered"] == .int(1_234_567))
        report.add("delivered", .int(5))
        #expect(report["delivered"] == .int(5) && report.figures.count == 9)
        var escaped = BenchReport()
        escaped.add("note", .text("a \"quoted\"\nline\u{1}"))
        escaped.add("nan", .number(.nan, decimals: 1))
        #expect(escaped.json == #"{"note":"a \"quoted\"\nline\u0001","nan":null}"#)
        #expect(BenchReport.groupedDigits(-1000) == "-1,000")
    }

    @Test("the progress line shows the phase, the percent and bar of the shared widget, and the detail")
    func progressLine() {
        let line = BenchProgressLine.render(phase: "follow measuring", fraction: 0.5, detail: "1,000 delivered", barWidth: 14)
        #expect(line.hasPrefix("follow measuring  50% "))
        #expect(line.hasSuffix("  1,000 delivered"))
        #expect(line.contains("█"))
        let spinning = BenchProgressLine.render(phase: "connecting", fraction: nil, detail: "3/10 connected")
        #expect(spinning.hasPrefix("connecting  ") && spinning.hasSuffix("3/10 connected"))
    }
}
