import Glibc
import NeonClient
import NeonCore
import NeonRender
import NeonSystem
import NeonTUI
import NeonTransport

/// neonsync: arguments → the command → its program on the runtime (or
/// `rooms`, which runs its own way, and `bench`, which neonsync-bench runs).
enum Client {
    static func run(_ arguments: [String]) -> Int32 {
        CrashReport.install(arguments: arguments)
        do {
            return try perform(Subcommand.parse(arguments))
        } catch {
            return error.report(as: Subcommand.program(of: arguments))
        }
    }

    /// Runs what was asked for; the error it ends with, if any, is printed
    /// by `run`, the one way every command ends on an error.
    private static func perform(_ subcommand: Subcommand) throws(NeonError) -> Int32 {
        switch subcommand {
        case let .help(text):
            print(text)
            return ExitStatus.done
        case .version:
            // The highlighter is a plug-in or a helper program
            // (docs/PACKAGING.md): its line says which, or why none.
            print(BuildStamp.versionText(program: "neonsync", libwebsockets: WebSocketLibrary.version))
            print("highlighting: \(CodeHighlighter.summary())")
            return ExitStatus.done
        case let .generated(text):
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            return ExitStatus.done
        case let .rooms(options):
            return try RoomsCommand.run(options)
        case let .bench(arguments):
            throw BenchLauncher.run(arguments)
        case let .replay(log, room, speed, summary):
            return try replay(log, room: room, speed: speed, summary: summary)
        case let .tail(room, json, options):
            return try tail(room: room, json: json, options)
        case let .read(file, room, options):
            return try reader(.read, room: room, file: file, options)
        case let .join(room, options):
            return try reader(.join, room: room, options)
        case let .present(file, room, pointing, slides, snippets, options):
            return try reader(.present, room: room, file: file, pointing: pointing, slides: slides, snippets: snippets, options)
        case let .follow(room, options):
            return try reader(.follow, room: room, options)
        case let .draft(room, profile, options):
            return try screen(.draft, options) { size, _ in
                var model = DraftModel(room: room, name: options.name, profile: profile, columns: size.columns, rows: size.rows)
                model.terminal = ProcessEnvironment().clipboardTerminal
                return model
            }
        case let .draftPrint(room, options):
            let (servers, network) = try connecting(options)
            let program = DraftPrintProgram(room: room, name: options.name, servers: servers.all.map(\.description))
            return Runtime(printing: program, command: .draft, mailbox: try RuntimeMailbox(network: network),
                           link: Link(servers: servers, token: options.token)).run()
        case let .notes(file, room, options):
            return try screen(.notes, options, document: file) { size, document in
                NotesModel(room: room, name: options.name, file: document ?? DocumentInfo(title: file, format: .markdown, text: ""),
                           columns: size.columns, rows: size.rows)
            }
        case let .monitor(room, options):
            return try screen(.monitor, options) { size, _ in
                MonitorModel(room: room, name: options.name, columns: size.columns, rows: size.rows)
            }
        }
    }

    /// The servers and the network context of a command that connects; the
    /// warnings about the token and --insecure go out first, before a
    /// screen takes the terminal over where they would garble.
    static func connecting(_ options: ConnectOptions) throws(NeonError) -> (ServerList<WebSocketURL>, WebSocketClientContext) {
        let servers = try ServerList.webSockets(options.server)
        if options.tokenOnCommandLine {
            standardError(TokenFile.commandLineWarning + "\n")
        }
        if options.trust == .insecureAcceptAnything {
            standardError(insecureWarning)
        }
        // Every connection failure reaches the user as this client's own
        // sentence; libwebsockets' log lines would only draw over the screen.
        TransportLog.route([])
        do {
            return (servers, try WebSocketClientContext(configuration: .init(serverTrust: options.trust)))
        } catch {
            throw NeonError(error).at("--ca").exiting(with: ExitStatus.usage)
        }
    }

    /// `neonsync tail`: no terminal; the server judges the room name, so a
    /// refused one exits 3 with its sentence (tail's documented status).
    private static func tail(room: String, json: Bool, _ options: ConnectOptions) throws(NeonError) -> Int32 {
        let (servers, network) = try connecting(options)
        let mailbox = try RuntimeMailbox(network: network)
        let program = TailProgram(room: room, name: options.name, json: json, servers: servers.all.map(\.description),
                                  timeOfDay: { timeOfDay() })
        return Runtime(printing: program, command: .tail, mailbox: mailbox,
                       link: Link(servers: servers, token: options.token)).run()
    }

    /// The local time of day, HH:MM:SS.
    private static func timeOfDay() -> String {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func pad(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }

    /// Printed on every start with --insecure.
    static let insecureWarning = """
    neonsync: WARNING: --insecure: the server's TLS certificate is NOT checked.
    neonsync: WARNING: anyone between you and the server can pose as it and read or change everything.
    neonsync: WARNING: for a self-signed server, pass --ca FILE with its CA certificate instead.

    """

    /// What to tell the user when a wss:// server's certificate is refused.
    static func untrustedSentence(_ rejection: CertificateRejection, url: WebSocketURL) -> String {
        let host = url.host
        switch rejection.kind {
        case .untrustedIssuer:
            return "cannot connect to \(url): the server's certificate is not trusted (\(rejection.detail)); pass --ca FILE with the CA that signed it, or --insecure for testing"
        case .hostnameMismatch:
            return "cannot connect to \(url): the server's certificate was not issued for \(host) (\(rejection.detail)); connect with a host name the certificate holds, or pass --insecure for testing"
        case .expired:
            return "cannot connect to \(url): the server's certificate has expired; the server needs a new one (--insecure skips the check for testing)"
        case .notYetValid:
            return "cannot connect to \(url): the server's certificate is not valid yet; check this machine's clock"
        case .other:
            return "cannot connect to \(url): the server's certificate failed verification (\(rejection.detail)); pass --insecure for testing"
        }
    }

    /// Writes `text` (with its own newlines) to standard error: warnings
    /// that do not end the command.
    static func standardError(_ text: String) {
        StandardStreams.write(text, to: STDERR_FILENO)
    }
}
