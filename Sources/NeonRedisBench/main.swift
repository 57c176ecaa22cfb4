import Foundation
import Glibc
import NeonClient
import NeonCore
import NeonServer
import NeonSystem

// neonsync-bench-redis: what the cluster's Redis carries. It appends scroll
// events to many rooms' logs and reads them back from their channels with
// the nodes' own writer and reader (neonsyncd's ClusterLink), without
// WebSockets or rooms' state, so that Redis, not the nodes, is the limit:
// on a small machine a node spends several times Redis's CPU on an event.
// It prints a table and, as its last line, one JSON object, as neonsync
// bench does. Build in release mode:
//   swift build -c release --product neonsync-bench-redis

let table = [
    OptionSpec("--redis", value: "URL", help: "the cluster's Redis: redis://HOST:PORT[/DB], or the shards' URLs joined by commas as neonsyncd --redis takes them (default redis://127.0.0.1:6379). Use a Redis of its own: the run leaves its rooms' keys behind"),
    OptionSpec("--rooms", value: "N", help: "rooms the events are spread over (default 1000)"),
    OptionSpec("--window", value: "W", help: "with --rate 0: events in flight per room; the next is appended when one comes back (default 1)"),
    OptionSpec("--rate", value: "R", help: "events a second over all rooms; 0 appends as fast as the windows allow (default 0)"),
    OptionSpec("--duration", value: "S", help: "seconds of measurement (default 10)"),
    OptionSpec("--redis-password-file", value: "FILE", help: "the Redis password (AUTH), first line of FILE"),
    OptionSpec.help(),
]
let usage = (["neonsync-bench-redis — the events a second the cluster's Redis carries, and its CPU per event", "",
              "USAGE:", "  neonsync-bench-redis [--redis URL[,URL…]] [--rooms N] [--rate R | --window W] [--duration S]",
              "", "OPTIONS:"] + HelpText.table(table.map { ($0.usage, $0.help) }, width: 80)).joined(separator: "\n")

/// Ends the run the way every NeonSync command ends on an error.
func fail(_ error: NeonError) -> Never {
    exit(error.report(as: "neonsync-bench-redis"))
}

var endpoints = [RedisEndpoint(host: "127.0.0.1", port: 6379)]
var rooms = 1000
var window = 1
var rate = 0.0
var duration = 10.0
var password: String?
let read: [OptionSpec.Argument]
do {
    read = try OptionSpec.parse(CommandLine.arguments.dropFirst(), by: table)
} catch {
    fail(NeonError.usage(error.sentence(help: "neonsync-bench-redis --help")))
}
for argument in read {
    guard case let .option(option, given) = argument else {
        guard case let .positional(word) = argument else { continue }
        fail(NeonError.usage("unknown option \(word); see neonsync-bench-redis --help"))
    }
    let value = given ?? ""
    switch option.flag {
    case "--help":
        print(usage)
        exit(0)
    case "--redis":
        do { endpoints = try RedisEndpoint.list(parsing: value) } catch { fail(error) }
    case "--rooms", "--window":
        guard let n = Int(value), (1...1_000_000).contains(n) else {
            fail(NeonError.usage("\(option.flag) needs a whole number from 1 to 1000000, e.g. \(option.flag) 100"))
        }
        if option.flag == "--rooms" { rooms = n } else { window = n }
    case "--rate":
        guard let r = Double(value), r >= 0, r.isFinite else { fail(NeonError.usage("--rate needs a number of events a second ≥ 0, e.g. --rate 60")) }
        rate = r
    case "--duration":
        guard let d = Double(value), d > 0, d <= 3600 else { fail(NeonError.usage("--duration needs seconds above 0, at most 3600, e.g. --duration 10")) }
        duration = d
    case "--redis-password-file":
        do { password = try RedisPassword.load(path: value) } catch { fail(error.at("--redis-password-file").exiting(with: NeonError.usageStatus)) }
    default:
        fail(NeonError.usage("unknown option \(option.flag); see neonsync-bench-redis --help"))
    }
}

let configuration = ClusterConfiguration(endpoints: endpoints, password: password, node: "bench-redis-\(getpid())")
let options = ClusterStoreLoad.Options(configuration: configuration, rooms: rooms, window: window, rate: rate,
                                       duration: .milliseconds(Int(duration * 1000)), prefix: "bench-redis-\(getpid())")
let result: ClusterStoreLoad.Result
do {
    result = try ClusterStoreLoad.run(options) { phase in StandardStreams.write("neonsync-bench-redis: \(phase)\n", to: STDERR_FILENO) }
} catch {
    fail(NeonError(error).advising("is the Redis at \(configuration.redisList) running?"))
}

var report = BenchReport()
report.add("redis", .text(configuration.redisList))
report.add("shards", .int(endpoints.count))
report.add("rooms", .int(rooms))
report.add("rate", .number(rate, decimals: 0), unit: rate > 0 ? "events/s" : "(0: saturate)")
if rate == 0 { report.add("window", .int(window)) }
report.add("duration_s", .number(result.seconds, decimals: 2), unit: "s")
report.add("events", .int(result.events))
report.add("events_per_s", .number(Double(result.events) / max(result.seconds, 1e-9), decimals: 0), unit: "events/s")
report.add("failures", .int(result.failures))
let redisCPU = result.redisCPU.reduce(0, +)
report.add("redis_cpu_s", .number(redisCPU, decimals: 3), unit: "s")
report.add("redis_cpu_pct", .number(redisCPU / max(result.seconds, 1e-9) * 100 / Double(endpoints.count), decimals: 1),
           unit: "% of a core, per Redis")
report.add("redis_cpu_us_per_event", .number(redisCPU / Double(max(result.events, 1)) * 1e6, decimals: 1), unit: "µs")
if endpoints.count > 1 {
    for (shard, (cpu, events)) in zip(result.redisCPU, result.redisEvents).enumerated() {
        report.add("redis_\(shard + 1)_events_per_s", .number(Double(events) / max(result.seconds, 1e-9), decimals: 0), unit: "events/s")
        report.add("redis_\(shard + 1)_cpu_pct", .number(cpu / max(result.seconds, 1e-9) * 100, decimals: 1), unit: "% of a core")
        report.add("redis_\(shard + 1)_cpu_us_per_event", .number(cpu / Double(max(events, 1)) * 1e6, decimals: 1), unit: "µs")
    }
}
report.add("client_cpu_s", .number(result.ownCPU, decimals: 2), unit: "s")
if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8), let load = text.split(separator: " ").first {
    report.add("load_average", .text(String(load)), unit: "(1 min, whole machine)")
}
report.addLatency(LatencySummary(nanoseconds: result.latencies))
print("neonsync-bench-redis → \(configuration.redisList)")
print(report.table)
print(report.json)
