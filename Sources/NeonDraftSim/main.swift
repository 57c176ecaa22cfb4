import Glibc
import NeonCore
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

/// What the flags ask for.
struct Run {
    var modes = DraftSimulation.Mode.allCases
    var seeds: UInt64 = 1000
    var from: UInt64 = 1
    var replay: UInt64?
    var jobs = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    var showHelp = false
}

let seedParser = ValueParser<UInt64>({ UInt64($0) }, otherwise: { flag, text in "\(flag) \(text) is not a seed (a whole number from 0)" })
let rows: [OptionRow<Run>] = [
    .value(OptionSpec("--mode", value: "MODE", help: "node, cluster or both (default both)"), \.modes,
           ValueParser({ $0 == "both" ? DraftSimulation.Mode.allCases : DraftSimulation.Mode(rawValue: $0).map { [$0] } },
                       otherwise: { flag, text in "\(flag) \(text) is not a mode; write node, cluster or both" })),
    .value(OptionSpec("--seeds", value: "N", help: "how many seeds to run in each mode (default 1000)"), \.seeds,
           ValueParser({ UInt64($0).flatMap { $0 > 0 ? $0 : nil } },
                       otherwise: { flag, text in "\(flag) \(text) is not a positive whole number" })),
    .value(OptionSpec("--from", value: "SEED", help: "the first seed (default 1)"), \.from, seedParser),
    .value(OptionSpec("--jobs", value: "J", help: "runs at once (default: one per processor)"), \.jobs,
           ValueParser({ Int($0).flatMap { $0 > 0 ? $0 : nil } },
                       otherwise: { flag, text in "\(flag) \(text) is not a positive whole number" })),
    .optional(OptionSpec("--replay", value: "SEED", help: "run this one seed and print every event"), \.replay, seedParser),
    .switch(OptionSpec.help(), \.showHelp, ends: true),
]

var run = Run()
do {
    try OptionRow.read(CommandLine.arguments.dropFirst(), by: rows, into: &run,
                       failing: { NeonError.usage($0.sentence(unknown: "flag")) },
                       positional: { _, word throws(NeonError) in throw NeonError.usage("unknown flag \(word)") })
} catch {
    fail(error.description)
}
if run.showHelp {
    print(usage + "\n\nOPTIONS:\n" + HelpText.table(rows.map { ($0.spec.usage, $0.spec.help) }, width: 80).joined(separator: "\n"))
    exit(0)
}
let (modes, seeds, from, jobs) = (run.modes, run.seeds, run.from, run.jobs)

if let replay = run.replay {
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
