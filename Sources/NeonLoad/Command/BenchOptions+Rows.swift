import NeonClient
import NeonCore
import NeonServer
import NeonSystem

extension BenchReading {
    /// Where each flag of NeonClient's `BenchHelp.table` puts its value, in
    /// the same order: the table `BenchOptions.parse` reads.
    static let rows: [OptionRow<BenchReading>] = [
        only(.value(BenchHelp.server, \.options.server, .text), for: connecting),
        only(.optional(BenchHelp.tokenFile, \.options.token, ValueParser<String> { _, path throws(NeonError) in
            do throws(NeonError) {
                return try PrivateFile.roomToken(path)
            } catch {
                throw error.exiting(with: NeonError.usageStatus)
            }
        }).checking { reading, _ in reading.tokenFromFile = true }, for: connecting),
        only(OptionRow(BenchHelp.token) { reading, flag, text throws(NeonError) in
            guard let text, !text.isEmpty else { throw NeonError.usage("\(flag) needs a value; see \(reading.program) --help") }
            reading.options.token = text
            reading.options.tokenOnCommandLine = true
        }, for: connecting),
        only(.value(BenchHelp.peer, \.options.peer, ValueParser({ BenchOptions.Peer(rawValue: $0) }, otherwise: { flag, _ in
            "\(flag) needs one of \(BenchOptions.Peer.allCases.map(\.rawValue).joined(separator: ", "))"
        })), for: connecting),
        only(.value(BenchHelp.followers, \.options.count, whole(from: 1)), for: [.follow]),
        only(.value(BenchHelp.readers, \.options.count, whole(from: 1)), for: [.coread]),
        only(.value(BenchHelp.editors, \.options.editors, whole(from: 1)), for: [.draft]),
        only(.value(BenchHelp.watchers, \.options.count, whole(from: 0)), for: [.draft]),
        only(.value(BenchHelp.connections, \.options.count, whole(from: 1)), for: [.relay, .connect]),
        only(.value(BenchHelp.senders, \.options.senders, whole(from: 1)), for: [.relay]),
        .value(BenchHelp.rate, \.options.rate, ValueParser({ Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } },
                                                            otherwise: { flag, _ in
            "\(flag) needs a number of events per second ≥ 0, e.g. \(flag) 60"
        })),
        only(.value(BenchHelp.window, \.options.window, whole(from: 1)), for: [.relay, .rooms, .redis]),
        .value(BenchHelp.duration, \.options.duration, ValueParser({ Double($0).flatMap { $0 > 0 && $0 <= 86_400 ? $0 : nil } },
                                                                    otherwise: { flag, _ in
            "\(flag) needs a number of seconds above 0, e.g. \(flag) 10"
        })),
        only(.value(BenchHelp.size, \.options.size, whole(from: 1)), for: [.relay]),
        only(.value(BenchHelp.rooms, \.options.rooms, whole(from: 1)), for: [.rooms, .churn, .redis]),
        only(.value(BenchHelp.perRoom, \.options.perRoom, whole(from: 1)), for: [.connect, .rooms]),
        .optional(BenchHelp.room, \.options.room, .text),
        only(.value(BenchHelp.serverPID, \.options.serverPIDs, pids(example: "$(pidof neonsyncd | tr ' ' ,)")), for: connecting),
        only(.value(BenchHelp.redisPID, \.options.redisPIDs, pids(example: "$(pidof redis-server | tr ' ' ,)")), for: connecting),
        only(.value(BenchHelp.redis, \.options.redis, ValueParser<[RedisEndpoint]> { flag, text throws(NeonError) in
            try RedisEndpoint.list(parsing: text, flag: flag)
        }), for: [.redis]),
        only(.optional(BenchHelp.redisPasswordFile, \.options.redisPassword, ValueParser<String> { flag, path throws(NeonError) in
            do throws(NeonError) {
                return try RedisPassword.load(path: path)
            } catch {
                throw error.at(flag).exiting(with: NeonError.usageStatus)
            }
        }), for: [.redis]),
        only(.value(BenchHelp.ramp, \.options.ramp, whole(from: 1)), for: connecting),
        only(.value(BenchHelp.servicePause, \.options.servicePause, whole(from: 0)), for: connecting),
        .switch(BenchHelp.showHelp, \.showHelp, ends: true),
    ]

    private static var connecting: [BenchScenario] { BenchOptions.connecting }

    /// `row`, refused for a scenario it does not belong to.
    private static func only(_ row: OptionRow<BenchReading>, for scenarios: [BenchScenario]) -> OptionRow<BenchReading> {
        row.checking { reading, flag throws(NeonError) in
            guard scenarios.contains(reading.scenario) else {
                let names = scenarios.map(\.rawValue).joined(separator: " or ")
                throw NeonError.usage("\(flag) belongs to \(reading.program) \(names); see \(reading.program) --help")
            }
        }
    }

    /// A whole number from `minimum` to a million.
    private static func whole(from minimum: Int) -> ValueParser<Int> {
        ValueParser({ Int($0).flatMap { $0 >= minimum && $0 <= 1_000_000 ? $0 : nil } }, otherwise: { flag, _ in
            "\(flag) needs a whole number from \(minimum) to 1000000, e.g. \(flag) \(max(minimum, 10))"
        })
    }

    /// A list of process ids, `PID[,PID…]`.
    private static func pids(example: String) -> ValueParser<[Int32]> {
        ValueParser({ text in
            let pids = text.split(separator: ",", omittingEmptySubsequences: false).map { Int32($0) }
            guard !pids.isEmpty, pids.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
            return pids.compactMap { $0 }
        }, otherwise: { flag, text in
            "\(flag) \(text) is not a list of process ids; give PID or PID,PID,… (commas, no spaces), e.g. \(flag) \(example)"
        })
    }
}
