import Glibc
import NeonCore
import NeonServer
import NeonSystem

/// `neonsyncd reshard`: moves a stopped cluster's rooms from one list of
/// Redis shards to another (docs/CLUSTER.md, "More than one Redis").
enum ReshardCommand {
    static let usage = "usage: neonsyncd reshard --from URL[,URL…] --to URL[,URL…] [--redis-password-file FILE] [--dry-run]"

    /// What the flags ask for.
    struct Request {
        var from: [RedisEndpoint]?
        var to: [RedisEndpoint]?
        var password: String?
        var dryRun = false
        var showHelp = false
    }

    /// Its flags and where their values go: the table it parses and its help lists.
    static let rows: [OptionRow<Request>] = [
        .optional(OptionSpec("--from", value: "URLS", help: "the cluster's shards as its nodes list them now in --redis, in that order"),
               \.from, endpoints),
        .optional(OptionSpec("--to", value: "URLS", help: "the shards the nodes will list, in their order (a shard added at the end moves the fewest rooms)"),
               \.to, endpoints),
        .optional(OptionSpec("--redis-password-file", value: "FILE", help: "the Redis password (AUTH), first line of FILE, as the nodes use"),
               \.password, ValueParser<String> { flag, path throws(NeonError) in
                   do throws(NeonError) {
                       return try RedisPassword.load(path: path)
                   } catch {
                       throw error.at(flag).exiting(with: NeonError.usageStatus)
                   }
               }),
        .switch(OptionSpec("--dry-run", help: "count the rooms that would move, and where, without moving any"), \.dryRun),
        .switch(OptionSpec.help(), \.showHelp, ends: true),
    ]

    static var options: [OptionSpec] { rows.map(\.spec) }

    private static let endpoints = ValueParser<[RedisEndpoint]> { flag, text throws(NeonError) in
        try RedisEndpoint.list(parsing: text, flag: flag)
    }

    /// `neonsyncd reshard` as neonsyncd's help and man page show it.
    static let spec = CommandLineSpec.Command(
        name: "reshard", synopsis: "neonsyncd reshard --from URLS --to URLS [--dry-run]",
        summary: """
            moves a cluster's rooms from the Redis shards of --from to those of --to (comma-separated redis:// URLs, \
            in the order of the nodes' --redis): each room whose shard changes is copied (DUMP, RESTORE) and then \
            deleted from its old shard. Every node must be stopped first; start them again with --redis set to the \
            --to list.
            """,
        groups: [.init(nil, options)],
        exitStatuses: [.init("0", "the rooms moved (or counted, with --dry-run)"),
                       .init("1", "a Redis cannot be reached, is not where --from says, or a node is still alive"),
                       .init("2", "bad flags")])

    static var help: String {
        ([usage, ""] + HelpText.table(options.map { ($0.usage, $0.help) }, width: 80)).joined(separator: "\n")
    }

    /// Returns the exit status: 0 moved (or counted), 1 a Redis cannot be
    /// reached or a node is alive, 2 bad flags (said with the usage line).
    static func run(_ arguments: [String]) -> Int32 {
        do {
            return try reshard(arguments)
        } catch {
            return error.report(as: "neonsyncd reshard", footer: error.exitStatus == NeonError.usageStatus ? usage : nil)
        }
    }

    private static func reshard(_ arguments: [String]) throws(NeonError) -> Int32 {
        var request = Request()
        try OptionRow.read(arguments, by: rows, into: &request, failing: { NeonError.usage($0.sentence()) },
                           positional: { _, word throws(NeonError) in throw NeonError.usage("unknown option \(word)") })
        if request.showHelp {
            print(help)
            return 0
        }
        let dryRun = request.dryRun
        let password = request.password
        guard let from = request.from else { throw NeonError.usage("--from is required: the shards the nodes list now, in their order") }
        guard let to = request.to else { throw NeonError.usage("--to is required: the shards the nodes will list, in their order") }
        let summary = try ClusterReshard.run(from: from, to: to, password: password, dryRun: dryRun) { line in
            StandardStreams.write("neonsyncd reshard: \(line)\n", to: STDERR_FILENO)
        }
        let places = zip(to, summary.perTarget).filter { $0.1 > 0 }.map { "\($0.1) to \($0.0)" }.joined(separator: ", ")
        if dryRun {
            print("would move \(summary.moved) of \(summary.rooms) rooms\(places.isEmpty ? "" : ": \(places)")")
        } else {
            print("moved \(summary.moved) of \(summary.rooms) rooms (\(summary.bytes) bytes)\(places.isEmpty ? "" : ": \(places)"); start the nodes with --redis \(to.map(\.description).joined(separator: ","))")
        }
        return 0
    }
}
