import Foundation
import NeonClient
import NeonCore
import NeonRender
import NeonTUI
import NeonTransportCore

/// The commands that draw a screen: the terminal is taken over, the program
/// made at its size, and the runtime runs it.
extension Client {
    /// The reader: `read`, `join`, `present` and `follow`; `file` is read
    /// (with a loading screen) and published once welcomed.
    static func reader(_ mode: ClientMode, room: String, file: String? = nil, pointing: PointingRule = .everyone,
                       slides: Bool = false, snippets: SnippetPermission = .off, _ options: ConnectOptions) throws(NeonError) -> Int32 {
        let command: CommandName = switch mode {
        case .read: .read
        case .join: .join
        case .present: .present
        case .follow: .follow
        }
        let directory = file.flatMap(DocumentFile.directoryURL(of:))
        return try screen(command, options, document: file, pictures: true) { size, document in
            var model = ReaderModel(mode: mode, room: room, name: options.name, columns: size.columns, rows: size.rows,
                                    document: document, directory: directory, pointing: pointing, slides: slides, snippets: snippets,
                                    at: .zero)
            model.clipboardTerminal = ProcessEnvironment().clipboardTerminal
            return model
        }
    }

    /// A screen program that connects: servers and network, the terminal,
    /// the document (if any), the mailbox, then the runtime.
    static func screen<P: ScreenProgram>(_ command: CommandName, _ options: ConnectOptions, document file: String? = nil,
                                         pictures: Bool = false,
                                         make: ((columns: Int, rows: Int), DocumentInfo?) -> P) throws(NeonError) -> Int32 {
        let (servers, network) = try connecting(options)
        let screen = try enter(command, theme: options.theme, hyperlinks: options.hyperlinks,
                               graphics: pictures ? options.graphics : "none")
        var document: DocumentInfo?
        if let file {
            do {
                document = try DocumentFile.load(file) { done, total in drawLoading(file, done, total, on: screen) }
                if var info = document, let directory = DocumentFile.directory(of: file) {
                    let pictures = DocumentPictures.collect(for: info, directory: directory)
                    info.images = pictures.images
                    info.unshown = pictures.unshown
                    document = info
                }
            } catch {
                screen.restore()
                throw error
            }
        }
        let mailbox: RuntimeMailbox
        do {
            mailbox = try RuntimeMailbox(network: network)
        } catch {
            screen.restore()
            throw error
        }
        let program = make(screen.size, document)
        return Runtime(drawing: program, on: screen, command: command, mailbox: mailbox,
                       link: Link(servers: servers, token: options.token),
                       watching: file.flatMap { FileWatcher(path: $0) }).run()
    }

    /// `neonsync replay`: the log is read before anything else, so a bad
    /// file exits 2 with its sentence; `--summary` prints and needs no
    /// terminal, otherwise the log plays through the monitor's screen.
    static func replay(_ log: String, room: String?, speed: Double, summary: Bool) throws(NeonError) -> Int32 {
        var entries = try loadLog(log)
        if let room { entries = entries.filter { $0.room == nil || $0.room == room } }
        if summary {
            print(ReplaySummary(entries: entries).text, terminator: "")
            return ExitStatus.done
        }
        guard !LogReplay.rooms(in: entries).isEmpty else {
            throw NeonError.usage("\(log) has no room events to replay")
        }
        let screen = try enter(.replay, theme: ThemeName(rawValue: ProcessEnvironment()[ThemeName.environment] ?? "") ?? .dark)
        let mailbox: RuntimeMailbox
        do {
            mailbox = try RuntimeMailbox()
        } catch {
            screen.restore()
            throw error
        }
        let size = screen.size
        let program = ReplayProgram(file: log, entries: entries, room: room, speed: speed,
                                    columns: size.columns, rows: size.rows)
        return Runtime(drawing: program, on: screen, command: .replay, mailbox: mailbox, link: nil).run()
    }

    /// Reads and checks a server log; a missing, unreadable or foreign file
    /// is a sentence naming it.
    private static func loadLog(_ file: String) throws(NeonError) -> [ServerLogEntry] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw NeonError.usage("cannot read the log file \(file); give the path of a neonsyncd --log file")
        }
        return try ServerLogEntry.parse(String(decoding: data, as: UTF8.self), file: file)
    }

    /// Takes the terminal over in the chosen theme; a terminal that cannot
    /// draw a screen is bad usage.
    private static func enter(_ command: CommandName, theme: ThemeName, hyperlinks: HyperlinkChoice = .never,
                              graphics: String = "none") throws(NeonError) -> Screen {
        let env = ProcessEnvironment()
        var known: [String: String] = [:]
        for name in HyperlinkChoice.environmentNames { known[name] = env[name] }
        return try Screen.enter(for: command, theme: chooseTheme(theme), hyperlinks: hyperlinks.enabled(in: known),
                                graphics: graphics)
    }

    /// The loading screen: determinate progress while a big file is read.
    private static func drawLoading(_ file: String, _ done: Int, _ total: Int, on screen: Screen) {
        let size = screen.size
        var buffer = Buffer(width: size.columns, height: size.rows, style: screen.theme.background)
        guard let model = try? ProgressModel(value: Double(done), total: Double(max(total, 1)), label: "Loading \(file)",
                                             currentValueLabel: "\(done / 1024) of \(max(total, 1) / 1024) KiB") else { return }
        let width = min(60, size.columns)
        ProgressBar(model, style: .bar, theme: screen.theme)
            .render(in: Rect(width: size.columns, height: size.rows).centered(width: width, height: 4), into: &buffer)
        screen.paint(buffer)
    }

    /// `Theme.chosen` for this terminal and the theme chosen. (TERM=dumb
    /// never gets this far: `Terminal.enter` refuses it.)
    private static func chooseTheme(_ name: ThemeName) -> Theme {
        let env = ProcessEnvironment()
        var known: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "COLORTERM"] { known[name] = env[name] }
        return Theme.chosen(for: known, name: name)
    }
}
