import NeonCore

/// Scroll events per second through the hub and room reducer (no JSON, no
/// sockets): the cost the server pays per `scroll` before encoding.
func runReducerBenchmark(events: Int = 3_000_000, members: Int = 8) -> [String] {
    var hub = Hub()
    let ids = (0..<members).map { ClientID("c\($0)") }
    for (i, id) in ids.enumerated() {
        _ = hub.apply(.received(id, .hello(room: "bench", name: "r\(i)", role: i == 0 ? .presenter : .reader)), at: .zero)
    }
    let text = (1...40).map { "# Section \($0)\n\n" + String(repeating: "word ", count: 200) }.joined(separator: "\n\n")
    _ = hub.apply(.received(ids[0], .document(title: "Bench", format: .markdown, text: text)), at: .zero)
    let blocks = hub.rooms["bench"]!.parsed!.blocks.count
    let content = 10_000, viewport = 50

    var results: [Double] = []
    var outputs = 0
    for _ in 0..<3 {
        let clock = ContinuousClock()
        let start = clock.now
        for n in 0..<events {
            let id = ids[n % members]
            let top = (n / members) % (content - viewport)
            let anchor = Anchor(block: top * blocks / content, offset: 0)
            let out = hub.apply(.received(id, .scroll(top: top, viewport: viewport, content: content, anchor: anchor)),
                                at: .nanoseconds(Int64(n) * 1000))
            outputs &+= out.count
        }
        let elapsed = (clock.now - start).inSeconds
        results.append(Double(events) / elapsed)
    }
    results.sort()
    return [
        "reducer: \(events) scroll events × 3 runs, \(members) members, \(blocks) blocks",
        "reducer: best \(Int(results[2])) events/s, median \(Int(results[1])) events/s (outputs \(outputs))",
    ]
}
