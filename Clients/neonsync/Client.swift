import Glibc
import NeonClient
import NeonCore
import NeonTransport
import NeonTUI

/// neonsync: options → (file) → terminal → the app loop → restore.
enum Client {
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "bench" {
            return BenchCommand.run(Array(arguments.dropFirst()))
        }
        if arguments.first == "rooms" {
            return RoomsCommand.run(Array(arguments.dropFirst()))
        }
        if arguments.first == "help", arguments.count == 2, ["rooms", "bench"].contains(arguments[1]) {
            return arguments[1] == "rooms" ? RoomsCommand.run(["--help"]) : BenchCommand.run(["--help"])
        }
        let options: ClientOptions
        do {
            guard let parsed = try ClientOptions.parse(arguments) else { return ExitStatus.done }
            options = parsed
        } catch {
            standardError(error.line + "\n")
            return ExitStatus.usage
        }
        let say = "neonsync \(options.command.rawValue): "
        if options.command == .replay {
            return replay(options)
        }
        let servers: ServerList<WebSocketURL>
        do {
            servers = try .webSockets(options.server)
        } catch {
            standardError(say + error.description + "\n")
            return ExitStatus.usage
        }
        // Said before a screen takes the terminal over, where it would garble.
        if options.tokenOnCommandLine {
            standardError(TokenFile.commandLineWarning + "\n")
        }
        if options.trust == .insecureAcceptAnything {
            standardError(insecureWarning)
        }
        // Every connection failure reaches the user as this client's own
        // sentence; libwebsockets' log lines would only draw over the screen.
        TransportLog.route([])
        let network: WebSocketClientContext
        do {
            network = try WebSocketClientContext(configuration: .init(serverTrust: options.trust))
        } catch {
            standardError(say + "--ca: \(error.description)\n")
            return ExitStatus.usage
        }
        if options.command == .tail {
            return tail(options, servers: servers, network: network)
        }
        let theme = chooseTheme()
        do {
            try Terminal.enter(for: options.command)
        } catch {
            standardError(say + error.description + "\n")
            return ExitStatus.usage
        }
        defer { Terminal.restore() }
        var document: DocumentInfo?
        if let file = options.file {
            do {
                document = try DocumentFile.load(file) { done, total in drawLoading(file, done, total, theme: theme) }
            } catch {
                Terminal.restore()
                standardError(say + error.description + "\n")
                return ExitStatus.usage
            }
        }
        let size = Terminal.size()
        let mailbox: Mailbox
        do {
            mailbox = try Mailbox(network: network)
        } catch {
            Terminal.restore()
            standardError(say + error.description + "\n")
            return ExitStatus.failed
        }
        if options.command == .monitor {
            let model = MonitorModel(room: options.room, name: options.name,
                                     columns: size.columns, rows: size.rows)
            return finish(App(model: model, servers: servers, theme: theme, mailbox: mailbox, token: options.token),
                          command: options.command)
        }
        if options.command == .draft {
            let model = DraftModel(room: options.room ?? "lobby", name: options.name, profile: options.profile,
                                   columns: size.columns, rows: size.rows)
            return finish(App(model: model, servers: servers, theme: theme, mailbox: mailbox, token: options.token),
                          command: options.command)
        }
        let start = ContinuousClock.now
        let model = ReaderModel(mode: options.mode, room: options.room ?? "lobby", name: options.name,
                                columns: size.columns, rows: size.rows, document: document,
                                at: ContinuousClock.now - start)
        return finish(App(model: model, servers: servers, theme: theme, mailbox: mailbox, token: options.token),
                      command: options.command)
    }

    /// Runs a screen; a refusal that ended it (status 3 for the server's,
    /// 5 for a certificate) is printed once the terminal is restored.
    private static func finish<Model: ScreenModel>(_ app: App<Model>, command: CommandName) -> Int32 {
        let status = app.run()
        if let refusal = app.refusal {
            Terminal.restore()
            standardError("neonsync \(command.rawValue): \(refusal)\n")
        }
        return status
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

    /// `neonsync tail`: no terminal; the server judges the room name, so a
    /// refused one exits 3 with its sentence (tail's documented status).
    private static func tail(_ options: ClientOptions, servers: ServerList<WebSocketURL>,
                             network: WebSocketClientContext) -> Int32 {
        do {
            let mailbox = try Mailbox(network: network)
            return TailCommand(room: options.room ?? "lobby", name: options.name, json: options.json,
                               servers: servers, mailbox: mailbox, token: options.token).run()
        } catch {
            standardError("neonsync tail: \(error.description)\n")
            return ExitStatus.failed
        }
    }

    /// `neonsync replay`: the log is read before anything else, so a bad
    /// file exits 2 with its sentence; `--summary` prints and needs no
    /// terminal, otherwise the log plays through the monitor's screen.
    private static func replay(_ options: ClientOptions) -> Int32 {
        let file = options.file ?? ""
        var entries: [ServerLogEntry]
        do {
            entries = try ReplayCommand.load(file)
        } catch {
            standardError("neonsync replay: \(error.description)\n")
            return ExitStatus.usage
        }
        if let room = options.room { entries = entries.filter { $0.room == nil || $0.room == room } }
        if options.summary {
            print(ReplaySummary(entries: entries).text, terminator: "")
            return ExitStatus.done
        }
        guard !LogReplay.rooms(in: entries).isEmpty else {
            standardError("neonsync replay: \(file) has no room events to replay\n")
            return ExitStatus.usage
        }
        let theme = chooseTheme()
        do {
            try Terminal.enter(for: .replay)
        } catch {
            standardError("neonsync replay: \(error.description)\n")
            return ExitStatus.usage
        }
        defer { Terminal.restore() }
        do {
            let mailbox = try Mailbox()
            return ReplayCommand(file: file, entries: entries, room: options.room, speed: options.speed,
                                 theme: theme, mailbox: mailbox).run()
        } catch {
            Terminal.restore()
            standardError("neonsync replay: \(error.description)\n")
            return ExitStatus.failed
        }
    }

    /// The loading screen: determinate progress while a big file is read.
    private static func drawLoading(_ file: String, _ done: Int, _ total: Int, theme: Theme) {
        let size = Terminal.size()
        var buffer = Buffer(width: size.columns, height: size.rows, style: theme.background)
        guard let model = try? ProgressModel(value: Double(done), total: Double(max(total, 1)), label: "Loading \(file)",
                                             currentValueLabel: "\(done / 1024) of \(max(total, 1) / 1024) KiB") else { return }
        let width = min(60, size.columns)
        ProgressBar(model, style: .bar, theme: theme)
            .render(in: Rect(width: size.columns, height: size.rows).centered(width: width, height: 4), into: &buffer)
        Terminal.write(FrameWriter.diff(from: nil, to: buffer))
    }

    /// NO_COLOR: no colours; COLORTERM truecolor: 24-bit. (TERM=dumb
    /// never gets this far: `Terminal.enter` refuses it.)
    private static func chooseTheme() -> Theme {
        let env = ProcessEnvironment()
        if env["NO_COLOR"] != nil { return .monochrome }
        if let depth = env["COLORTERM"], depth == "truecolor" || depth == "24bit" { return .neon }
        return .neon256
    }

    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
