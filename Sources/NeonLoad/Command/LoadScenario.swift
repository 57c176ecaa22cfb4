import NeonClient
import NeonCore

/// One scenario of neonsync-bench: a load it drives and measures. Made from
/// the run's options (its connections' context, or its link to a cluster's
/// Redis: whatever cannot start fails here, before anything is sent), then
/// run once. The state a scenario shares between the thread that paces it
/// and the threads that read what comes back is behind a `Locked` or in
/// atomics, so each is `Sendable` as the compiler checks it.
protocol LoadScenario: Sendable {
    /// Prepares the run; throws the sentence when it cannot start.
    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError)
    /// Drives the load for the options' duration and measures it; stops
    /// what it started, also when it throws (with what to check).
    func run() throws(NeonError) -> LoadResult
}

/// What a run reports.
struct LoadResult {
    /// What it loaded, after the arrow of the line above the figures:
    /// `ws://… (neonsync)`, `redis://…`.
    var target: String
    var report: BenchReport
    /// The first thing that went wrong in a run that still finished (the
    /// exit status is then 1); nil when nothing did.
    var problem: String?
}

extension BenchScenario {
    /// The scenario that runs it.
    var load: any LoadScenario.Type {
        switch self {
        case .follow, .coread: ScrollBench.self
        case .draft: DraftBench.self
        case .relay: RelayBench.self
        case .connect: ConnectBench.self
        case .rooms: RoomsBench.self
        case .churn: ChurnBench.self
        case .redis: RedisStoreBench.self
        }
    }
}
