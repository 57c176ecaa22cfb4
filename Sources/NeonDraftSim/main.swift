import Glibc
import NeonSimulation
import NeonSystem

// The shared draft's deterministic simulation, many seeds at a time
// (scripts/draft-sim.sh); docs/RELIABILITY.md records its runs. Build in
// release mode:
//   swift run -c release neonsync-draft-sim --mode both --seeds 1000000 --from 1
//   swift run -c release neonsync-draft-sim --mode node --replay 42
let usage = """
    usage: neonsync-draft-sim [--mode node|cluster|both] [--seeds N] [--from SEED] [--jobs J]
           neonsync-draft-sim [--mode node|cluster] --replay SEED
    Runs the draft's simulation for seeds SEED ..< SEED+N (default 1 ..< 1001) in each mode, J at a
    time (default: one per processor), and prints what each failing seed broke and the totals;
    --replay runs one seed and prints every event.
    """

func fail(_ sentence: String) -> Never {
    StandardStreams.error("neonsync-draft-sim: \(sentence)\n\(usage)")
    exit(2)
}

var modes = DraftSimulation.Mode.allCases
var seeds: UInt64 = 1000
var from: UInt64 = 1
var replay: UInt64?
var jobs = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
    switch flag {
    case "--mode":
        if value == "both" {
            modes = DraftSimulation.Mode.allCases
        } else if let mode = DraftSimulation.Mode(rawValue: value) {
            modes = [mode]
        } else {
            fail("--mode \(value) is not a mode; write node, cluster or both")
        }
    case "--seeds":
        guard let n = UInt64(value), n > 0 else { fail("--seeds \(value) is not a positive whole number") }
        seeds = n
    case "--from":
        guard let n = UInt64(value) else { fail("--from \(value) is not a seed (a whole number from 0)") }
        from = n
    case "--jobs":
        guard let n = Int(value), n > 0 else { fail("--jobs \(value) is not a positive whole number") }
        jobs = n
    case "--replay":
        guard let n = UInt64(value) else { fail("--replay \(value) is not a seed (a whole number from 0)") }
        replay = n
    default:
        fail("unknown flag \(flag)")
    }
}

if let replay {
    guard modes.count == 1, let mode = modes.first else { fail("--replay needs one --mode, node or cluster") }
    let simulation = DraftSimulation(seed: replay, mode: mode, tracing: true)
    let report = simulation.run()
    for line in simulation.trace { print(line) }
    print("final draft: \(report.finalText)")
    print(DraftSimulationSummary(reports: [report]).lines.joined(separator: "\n"))
    for failure in report.failures { print("FAILED: \(failure)") }
    exit(report.passed ? 0 : 1)
}

let started = ContinuousClock.now
let total = modes.count * Int(seeds)
var summary = DraftSimulationSummary()
@MainActor func take(_ report: DraftSimulationReport) {
    summary.add(report)
    if !report.passed {
        let early = report.typesEarly ? ", typing before the first welcome" : ""
        print("seed \(report.seed) (\(report.mode.rawValue)\(early)) failed: \(report.failures.prefix(3).joined(separator: "; "))")
        print("  replay: \(report.replay)")
    }
    if summary.runs % 10_000 == 0 {
        print("… \(summary.runs) of \(total) runs, \(summary.failed) failed, \(started.duration(to: .now)) so far")
        fflush(nil)
    }
}
// Each run stays on the thread that starts it (its nodes' executors check
// that they run on one thread); `jobs` runs go at once.
let runs = modes.flatMap { mode in (from ..< from + seeds).lazy.map { (mode, $0) } }
await withTaskGroup(of: DraftSimulationReport.self) { group in
    var next = runs.makeIterator()
    for _ in 0 ..< jobs {
        guard let (mode, seed) = next.next() else { break }
        group.addTask { DraftSimulation(seed: seed, mode: mode).run() }
    }
    while let report = await group.next() {
        take(report)
        if let (mode, seed) = next.next() { group.addTask { DraftSimulation(seed: seed, mode: mode).run() } }
    }
}
print(summary.lines.joined(separator: "\n"))
print("time: \(started.duration(to: .now))")
exit(summary.failed == 0 ? 0 : 1)
