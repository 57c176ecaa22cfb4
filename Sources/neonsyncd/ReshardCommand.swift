import Glibc
import NeonCore
import NeonServer

/// `neonsyncd reshard`: moves a stopped cluster's rooms from one list of
/// Redis shards to another (docs/CLUSTER.md, "More than one Redis").
enum ReshardCommand {
    static let usage = "usage: neonsyncd reshard --from URL[,URL…] --to URL[,URL…] [--redis-password-file FILE] [--dry-run]"

    /// Its flags: the table it parses and its help lists.
    static let options = [
        OptionSpec("--from", value: "URLS", help: "the cluster's shards as its nodes list them now in --redis, in that order"),
        OptionSpec("--to", value: "URLS", help: "the shards the nodes will list, in their order (a shard added at the end moves the fewest rooms)"),
        OptionSpec("--redis-password-file", value: "FILE", help: "the Redis password (AUTH), first line of FILE, as the nodes use"),
        OptionSpec("--dry-run", help: "count the rooms that would move, and where, without moving any"),
        OptionSpec.help(),
    ]

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

    static func run(_ arguments: [String]) -> Int32 {
        func fail(_ sentence: String, _ status: Int32 = 2) -> Int32 {
            Daemon.standardError("neonsyncd reshard: \(sentence)\(status == 2 ? "\n\(usage)" : "")\n")
            return status
        }
        var from: [RedisEndpoint]?
        var to: [RedisEndpoint]?
        var password: String?
        var dryRun = false
        let read: [OptionSpec.Argument]
        do {
            read = try OptionSpec.parse(arguments, by: options)
        } catch {
            return fail(error.sentence())
        }
        for argument in read {
            guard case let .option(option, value) = argument else {
                if case let .positional(word) = argument { return fail("unknown option \(word)") }
                continue
            }
            do {
                switch option.flag {
                case "--help":
                    print(help)
                    return 0
                case "--dry-run": dryRun = true
                case "--from": from = try RedisEndpoint.list(parsing: value ?? "")
                case "--to": to = try RedisEndpoint.list(parsing: value ?? "")
                default:
                    password = try RedisPassword.load(path: value ?? "")
                }
            } catch {
                return fail(error.description.replacingOccurrences(of: "--redis ", with: "\(option.flag) "))
            }
        }
        guard let from else { return fail("--from is required: the shards the nodes list now, in their order") }
        guard let to else { return fail("--to is required: the shards the nodes will list, in their order") }
        do {
            let summary = try ClusterReshard.run(from: from, to: to, password: password, dryRun: dryRun) { line in
                Daemon.standardError("neonsyncd reshard: \(line)\n")
            }
            let places = zip(to, summary.perTarget).filter { $0.1 > 0 }.map { "\($0.1) to \($0.0)" }.joined(separator: ", ")
            if dryRun {
                print("would move \(summary.moved) of \(summary.rooms) rooms\(places.isEmpty ? "" : ": \(places)")")
            } else {
                print("moved \(summary.moved) of \(summary.rooms) rooms (\(summary.bytes) bytes)\(places.isEmpty ? "" : ": \(places)"); start the nodes with --redis \(to.map(\.description).joined(separator: ","))")
            }
            return 0
        } catch {
            return fail(error.description, 1)
        }
    }
}
