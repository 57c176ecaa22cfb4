import NeonServerTestSupport
import Testing

@Suite("Metrics exposition parser")
struct MetricsParserTests {
    static let valid = """
    # HELP demo_total Things, with a \\\\ and a \\n.
    # TYPE demo_total counter
    demo_total{kind="a\\"b\\\\c\\nd",other="x"} 3
    # HELP demo_seconds Latency.
    # TYPE demo_seconds histogram
    demo_seconds_bucket{le="0.5"} 1
    demo_seconds_bucket{le="1"} 2
    demo_seconds_bucket{le="+Inf"} 2
    demo_seconds_sum 1.25e0
    demo_seconds_count 2

    """

    @Test("a valid exposition parses, label escapes included")
    func acceptsValid() throws {
        let parsed = try Exposition(Self.valid)
        #expect(parsed.order == ["demo_total", "demo_seconds"])
        #expect(parsed.value("demo_total", ["kind": "a\"b\\c\nd", "other": "x"]) == 3)
        #expect(parsed.families["demo_total"]?.help == "Things, with a \\ and a \n.")
        #expect(parsed.value("demo_seconds_sum") == 1.25)
    }

    @Test("the parser refuses what Prometheus or the house rules refuse", arguments: [
        ("no trailing newline", "# HELP a x\n# TYPE a gauge\na 1"),
        ("a blank line", "# HELP a x\n# TYPE a gauge\n\na 1\n"),
        ("a free comment", "# hello\n"),
        ("a sample before its TYPE", "# HELP a x\na 1\n# TYPE a gauge\n"),
        ("a sample without HELP", "# TYPE a gauge\na 1\n"),
        ("an unknown type", "# HELP a x\n# TYPE a summary\na 1\n"),
        ("a bad metric name", "# HELP 1a x\n# TYPE 1a gauge\n1a 1\n"),
        ("a bad label name", "# HELP a x\n# TYPE a gauge\na{__x=\"1\"} 1\n"),
        ("an unquoted label value", "# HELP a x\n# TYPE a gauge\na{x=1} 1\n"),
        ("a bad escape", "# HELP a x\n# TYPE a gauge\na{x=\"\\t\"} 1\n"),
        ("a repeated label", "# HELP a x\n# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n"),
        ("a bad value", "# HELP a x\n# TYPE a gauge\na 0x10\n"),
        ("a timestamp", "# HELP a x\n# TYPE a gauge\na 1 1700000000\n"),
        ("two spaces", "# HELP a x\n# TYPE a gauge\na  1\n"),
        ("a duplicate series", "# HELP a x\n# TYPE a gauge\na 1\na 2\n"),
        ("a negative counter", "# HELP a_total x\n# TYPE a_total counter\na_total -1\n"),
        ("a family split in two", "# HELP a x\n# TYPE a gauge\na 1\n# HELP b x\n# TYPE b gauge\nb 1\n# HELP a x\n"),
        ("a sample of another family", "# HELP a x\n# TYPE a gauge\nb 1\n"),
        ("buckets that are not cumulative",
         "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 2\n"),
        ("+Inf not equal to _count",
         "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 2\n"),
        ("no +Inf bucket", "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n"),
        ("no _sum", "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n"),
    ])
    func refuses(reason: String, text: String) {
        #expect(throws: Exposition.Failure.self, "\(reason)") { try Exposition(text) }
    }
}
