/// The totals of many runs, and the event mix per run, as the script and
/// docs/RELIABILITY.md give them.
package struct DraftSimulationSummary: Sendable {
    package private(set) var runs = 0
    package private(set) var failed = 0
    private var totals = DraftSimulationReport(seed: 0, mode: .node, writers: 0, typesEarly: false)
    private var writers = 0
    private var finalLengths = 0
    /// Runs with at least one crash, at least one cut connection.
    private var crashedRuns = 0
    private var cutRuns = 0

    package init(reports: [DraftSimulationReport] = []) {
        for report in reports { add(report) }
    }

    package mutating func add(_ report: DraftSimulationReport) {
        runs += 1
        if !report.passed { failed += 1 }
        writers += report.writers
        totals.events += report.events
        totals.keystrokes += report.keystrokes
        totals.pastes += report.pastes
        totals.offlineKeystrokes += report.offlineKeystrokes
        totals.connections += report.connections
        totals.cuts += report.cuts
        totals.failovers += report.failovers
        totals.readers += report.readers
        totals.crashes += report.crashes
        totals.restarts += report.restarts
        totals.resyncs += report.resyncs
        finalLengths += report.finalLength
        if report.crashes > 0 { crashedRuns += 1 }
        if report.cuts > 0 { cutRuns += 1 }
    }

    package var lines: [String] {
        func per(_ total: Int) -> String {
            let tenths = runs == 0 ? 0 : (total * 10 + runs / 2) / runs
            return "\(tenths / 10).\(tenths % 10)"
        }
        return [
            "runs: \(runs), passed: \(runs - failed), failed: \(failed)",
            "totals: \(totals.events) events, \(totals.keystrokes) keystrokes (\(totals.pastes) pastes, \(totals.offlineKeystrokes) typed offline), \(totals.connections) connections, \(totals.cuts) cut, \(totals.crashes) crashes, \(totals.restarts) restarts, \(totals.failovers) failovers, \(totals.resyncs) resyncs",
            "per run: \(per(writers)) writers (\(per(totals.readers)) in the reader's panel), \(per(totals.events)) events, \(per(totals.keystrokes)) keystrokes, \(per(totals.pastes)) pastes, \(per(totals.offlineKeystrokes)) typed offline, \(per(totals.connections)) connections, \(per(totals.cuts)) cuts, \(per(totals.crashes)) crashes, \(per(totals.failovers)) failovers, \(per(totals.resyncs)) resyncs, final draft \(per(finalLengths)) characters",
            "runs with a crash: \(crashedRuns), with a cut connection: \(cutRuns)",
        ]
    }
}
