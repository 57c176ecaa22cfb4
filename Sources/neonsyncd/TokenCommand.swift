import Glibc
import NeonCore
import NeonServer
import NeonSystem

/// `neonsyncd token`: mints a room token with the server's secret and
/// prints it as the last line.
enum TokenCommand {
    static let usage = "usage: neonsyncd token --secret-file FILE --room R --role presenter|reader|observer [--ttl T]"

    /// What the flags ask for.
    struct Request {
        var secretFile: String?
        var room: String?
        var role: Role?
        var ttl: Int64 = 8 * 3600
        var showHelp = false
    }

    /// Its flags and where their values go: the table it parses and its help lists.
    static let rows: [OptionRow<Request>] = [
        .optional(OptionSpec("--secret-file", value: "FILE", help: "the secret tokens are signed with: the file neonsyncd's --secret-file reads"),
               \.secretFile, .text),
        .optional(OptionSpec("--room", value: "R", help: "a room name, or * for every room"), \.room, .text),
        .optional(OptionSpec("--role", value: "ROLE", help: """
            presenter, reader or observer; a presenter token also admits readers and observers, a reader token observers
            """, choices: Role.allCases.map(\.rawValue)), \.role, ValueParser({ Role(rawValue: $0) }, otherwise: { flag, text in
                "\(flag) \(text) is not a role; use presenter, reader or observer"
            })),
        .value(OptionSpec("--ttl", value: "T", help: """
            how long it admits: seconds, or a number with s, m, h or d (default 8h, at most 366d)
            """), \.ttl, ValueParser({ duration($0) }, otherwise: { flag, text in
                "\(flag) \(text) is not a duration; use e.g. 90s, 30m, 8h or 7d (at most 366d)"
            })),
        .switch(OptionSpec.help(), \.showHelp, ends: true),
    ]

    static var options: [OptionSpec] { rows.map(\.spec) }

    /// `neonsyncd token` as neonsyncd's help and man page show it.
    static let spec = CommandLineSpec.Command(
        name: "token", synopsis: "neonsyncd token --secret-file FILE --room R --role ROLE [--ttl T]",
        summary: """
            prints a room token (the last line of output) admitting room R (* for every room) as ROLE (presenter, \
            reader or observer; a presenter token also admits readers and observers, a reader token observers) for T \
            (e.g. 90s, 30m, 8h, 7d; default 8h). Clients pass it with --token-file FILE.
            """,
        groups: [.init(nil, options)],
        exitStatuses: [.init("0", "the token printed"), .init("2", "bad flags or an unusable secret")])

    /// What `neonsyncd token --help` prints.
    static var help: String {
        ([usage, ""] + HelpText.table(options.map { ($0.usage, $0.help) }, width: 80)).joined(separator: "\n")
    }

    /// Returns the exit status: 0 with the token printed, 2 for bad flags
    /// or an unusable secret (said with the usage line after it).
    static func run(_ arguments: [String]) -> Int32 {
        do {
            return try mint(arguments)
        } catch {
            return error.exiting(with: NeonError.usageStatus).report(as: "neonsyncd token", footer: usage)
        }
    }

    private static func mint(_ arguments: [String]) throws(NeonError) -> Int32 {
        var request = Request()
        try OptionRow.read(arguments, by: rows, into: &request, failing: { NeonError($0.sentence()) },
                           positional: { _, word throws(NeonError) in throw NeonError("unknown option \(word)") })
        if request.showHelp {
            print(help)
            return 0
        }
        let ttl = request.ttl
        guard let secretFile = request.secretFile else { throw NeonError("--secret-file is required (the same file neonsyncd uses)") }
        guard let room = request.room else { throw NeonError("--room is required (a room name, or * for every room)") }
        guard let role = request.role else { throw NeonError("--role is required (presenter, reader or observer)") }
        if room != Hub.everyRoom, let problem = Hub.problem(withRoom: room) {
            throw NeonError("--room \(room) is not a room name: \(problem); or give * for every room")
        }
        let secret = try TokenSecret.load(path: secretFile)
        let expires = Int64(time(nil)) + ttl
        let scope = room == Hub.everyRoom ? "every room" : "room \(room)"
        print("token for \(scope) as \(role.rawValue), valid for \(ttl) s (until unix time \(expires)):")
        print(RoomToken(room: room, role: role, expires: expires).signed(with: secret))
        return 0
    }

    /// `90`, `90s`, `30m`, `8h`, `7d` in seconds; nil when not a positive
    /// duration of at most 366 days.
    static func duration(_ text: String) -> Int64? {
        let scales: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(text)
        var scale: Int64 = 1
        if let last = digits.last, let found = scales[last] {
            scale = found
            digits = digits.dropLast()
        }
        guard let n = Int64(digits), n > 0, n <= 366 * 86_400 / scale else { return nil }
        return n * scale
    }
}
