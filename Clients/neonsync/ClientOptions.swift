import Glibc
import NeonClient
import NeonCore
import NeonTransport

/// `neonsync` subcommands and their flags.
struct ClientOptions {
    static let defaultServer = "ws://127.0.0.1:7681/"
    static let serverEnvironment = "NEONSYNC_SERVER"
    static let tokenEnvironment = "NEONSYNC_TOKEN"

    var mode: ClientMode = .read
    /// `neonsync draft ROOM`: the composer instead of the reader.
    var composer = false
    /// `neonsync tail ROOM`: print the room's events instead of a screen.
    var tail = false
    /// `tail --json`: the protocol messages verbatim.
    var json = false
    /// `neonsync monitor [ROOM]`: the live dashboard as an observer (of every room without ROOM).
    var monitor = false
    /// `neonsync replay LOGFILE`: a server log through the monitor's screen.
    var replay = false
    /// `replay --summary`: print the summary instead of replaying.
    var summary = false
    /// `replay --speed X`: times real time.
    var speed = 1.0
    var profile: CountingProfile?
    var file: String?
    var room: String?
    var name: String
    var server: String
    /// `--token T`: the room token a server with a secret requires.
    var token: String?
    /// How a wss:// server's certificate is checked (--ca, --insecure).
    var trust: ServerTrust = .systemStore

    static let usage = """
    neonsync — read, present, follow and draft together from terminals, and
    watch rooms (tail, monitor, replay)

    USAGE:
      neonsync read FILE [--room R] [--name N] [--server URL]
          publish FILE (Markdown, text or catalog JSON) to room R if it has no
          document yet (R defaults to the file name), then read at your pace
      neonsync join ROOM [--name N] [--server URL]
          read the room's document
      neonsync present FILE|ROOM [--room R] [--name N] [--server URL]
          lead the room: your scroll and tab choices are followed; with a FILE
          it becomes the room's document
      neonsync follow ROOM [--name N] [--server URL]
          follow the presenter on any terminal size; scrolling detaches, f
          follows again
      neonsync draft ROOM [--name N] [--server URL] [--profile P]
          compose the room's shared draft with everyone in it; the ring fills
          toward the limit (P, for a new room: graphemes, twitter, mastodon,
          bluesky)
      neonsync tail ROOM [--json] [--name N] [--server URL]
          print the room's events as they happen, one line each, as an
          observer; --json prints the protocol messages verbatim. Needs no
          terminal and reconnects by itself. Exit status: 0 stopped by
          SIGINT/SIGTERM, 2 bad usage, 3 the server refused to join the room,
          4 the server (with a failover list: none of them) could not be
          reached within 5 s of starting, 5 the server's TLS certificate
          failed verification
      neonsync monitor [ROOM] [--name N] [--server URL]
          a live dashboard as an observer: readers with role, progress bar,
          tab and follow state, the draft's ring, and a feed of joins, leaves,
          10% steps, tabs, limit events and errors (everyone's, not only the
          monitor's). Without ROOM it watches every room on the server: a list
          of rooms (Tab/n and Shift-Tab/p choose whose readers show) and one
          feed of all their events
      neonsync replay LOGFILE [--speed X] [--room R] [--summary]
          replay a neonsyncd JSON log through the monitor's screen at X times
          real time (default 1), every room in it unless --room R; with
          --summary print per room how far each reader read, the time spent
          in each section and the limit events, with no terminal needed
      neonsync bench SCENARIO [...]
          load-generate against a server and print latency percentiles and
          throughput (follow, coread, draft, relay, connect); see
          neonsync bench --help

    OPTIONS:
      --room R       room name (letters, digits, - _ .; at most 64 characters)
      --name N       the name others see (default: $USER)
      --server URL   ws://HOST:PORT/ or wss://HOST:PORT/ of neonsyncd (default
                     \(defaultServer), or $\(serverEnvironment)); wss://
                     checks the server's certificate against the system's CA
                     store and the host name in the URL. URL may be a failover
                     list, URL1,URL2,… (commas, no spaces): the client starts
                     with URL1 and, when a connection drops or cannot be made,
                     tries the next URL (after the last, the first again)
                     with its usual backoff, resyncing as on any reconnect;
                     --ca, --insecure and --token apply to every URL
      --ca FILE      wss:// only: trust the CA certificate(s) in FILE (PEM),
                     e.g. the CA of a self-signed setup, instead of the
                     system's store
      --insecure     wss:// only: do not check the server's certificate at
                     all (testing only; warns on every start)
      --token T      room token for a server that requires one (from its
                     operator's neonsyncd token; or $\(tokenEnvironment)); a
                     refused or expired token ends the client with status 3
      --json         tail only: one protocol message (JSON) per line
      --speed X      replay only: how many times faster than real time (> 0)
      --summary      replay only: print the summary instead of the screen
      -h, --help     show this help (also: neonsync COMMAND --help)

    Every command that connects takes --server (one URL or a failover list),
    --ca and --insecure. A wss:// server whose certificate fails
    verification ends the command with a sentence saying why and exit
    status 5 (no reconnecting, not even to the next URL of a failover list:
    trying again cannot help until the trust settings change, and a refused
    certificate may be an impostor's).

    KEYS (press ? inside for the full list):
      j/k ↓/↑ scroll · space/PgDn b/PgUp page · g/Home G/End · Tab/Shift-Tab 1–9 tabs
      t back to top · / search, n/N next/previous · f follow · ? help · q quit
    """

    struct Problem: Error, CustomStringConvertible { let description: String }

    /// Parses arguments; returns nil when help was printed.
    static func parse(_ arguments: [String]) throws(Problem) -> ClientOptions? {
        let env = ProcessEnvironment()
        var options = ClientOptions(name: env["USER"] ?? "reader",
                                    server: env[serverEnvironment] ?? defaultServer)
        options.token = env[tokenEnvironment]
        var rest = arguments[...]
        guard let command = rest.popFirst() else {
            throw Problem(description: "missing a command: read, join, present, follow, draft, tail, monitor or replay; see neonsync --help")
        }
        if command == "-h" || command == "--help" || command == "help" {
            print(usage)
            return nil
        }
        switch command {
        case "read": options.mode = .read
        case "join": options.mode = .join
        case "present": options.mode = .present
        case "follow": options.mode = .follow
        case "draft":
            options.mode = .join
            options.composer = true
        case "tail":
            options.mode = .join
            options.tail = true
        case "monitor":
            options.mode = .join
            options.monitor = true
        case "replay":
            options.mode = .join
            options.replay = true
        default:
            throw Problem(description: "unknown command \(command); use read, join, present, follow, draft, tail, monitor or replay (see neonsync --help)")
        }
        var positional: [String] = []
        while let arg = rest.popFirst() {
            switch arg {
            case "-h", "--help":
                print(usage)
                return nil
            case "--profile":
                guard let value = rest.popFirst(), let profile = CountingProfile(rawValue: value) else {
                    throw Problem(description: "--profile needs one of \(CountingProfile.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.profile = profile
            case "--json":
                guard options.tail else {
                    throw Problem(description: "--json belongs to neonsync tail; see neonsync --help")
                }
                options.json = true
            case "--summary":
                guard options.replay else {
                    throw Problem(description: "--summary belongs to neonsync replay; see neonsync --help")
                }
                options.summary = true
            case "--speed":
                guard options.replay else {
                    throw Problem(description: "--speed belongs to neonsync replay; see neonsync --help")
                }
                guard let value = rest.popFirst(), let speed = Double(value), speed > 0, speed.isFinite else {
                    throw Problem(description: "--speed needs a number above 0, e.g. --speed 10; see neonsync --help")
                }
                options.speed = speed
            case "--token":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw Problem(description: "--token needs a value (a room token from neonsyncd token); see neonsync --help")
                }
                options.token = value
            case "--ca" where options.replay, "--insecure" where options.replay:
                throw Problem(description: "\(arg) belongs to the commands that connect to a server, not to neonsync replay; see neonsync --help")
            case "--ca":
                guard let value = rest.popFirst() else {
                    throw Problem(description: "--ca needs a FILE of PEM CA certificates; see neonsync --help")
                }
                options.trust = .certificates(path: value)
            case "--insecure":
                options.trust = .insecureAcceptAnything
            case "--room", "--name", "--server":
                guard let value = rest.popFirst() else {
                    throw Problem(description: "\(arg) needs a value; see neonsync --help")
                }
                if arg == "--room" { options.room = value }
                if arg == "--name" { options.name = value }
                if arg == "--server" { options.server = value }
            default:
                if arg.hasPrefix("-") {
                    throw Problem(description: "unknown option \(arg); see neonsync --help")
                }
                positional.append(arg)
            }
        }
        if arguments.contains("--ca"), arguments.contains("--insecure") {
            throw Problem(description: "--ca and --insecure contradict each other: --ca checks the certificate against FILE, --insecure checks nothing; give one")
        }
        if options.monitor, positional.isEmpty {
            return options
        }
        guard positional.count == 1 else {
            let what = options.replay ? "LOGFILE" : options.composer ? "ROOM" : options.mode == .read ? "FILE" : options.mode == .present ? "FILE or ROOM" : "ROOM"
            throw Problem(description: "neonsync \(command) needs exactly one \(what); see neonsync --help")
        }
        let target = positional[0]
        if options.replay {
            options.file = target
            return options
        }
        switch options.mode {
        case .read:
            options.file = target
        case .join, .follow:
            options.room = target
        case .present:
            if access(target, F_OK) == 0 { options.file = target } else if options.room == nil { options.room = target }
        }
        if options.room == nil, let file = options.file {
            options.room = roomName(fromFile: file)
        }
        return options
    }

    /// A room name from a file name: its base name without extension, with
    /// characters a room name cannot hold replaced by '-'.
    static func roomName(fromFile path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let stem = base.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let name = (stem.isEmpty ? base : stem).map { c -> Character in
            c.isLetter || c.isNumber || c == "-" || c == "_" || c == "." ? c : "-"
        }
        return String(String(name).prefix(64))
    }
}

/// Reads environment variables without Foundation.
struct ProcessEnvironment {
    subscript(name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let s = String(cString: value)
        return s.isEmpty ? nil : s
    }
}
