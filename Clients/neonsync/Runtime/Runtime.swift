import Dispatch
import Glibc
import NeonClient
import NeonCore
import NeonRender
import NeonSystem
import NeonTUI
import NeonTransportCore

/// The one loop of every `neonsync` program (the Elm architecture, as
/// bubbletea runs it): it owns the terminal (or, for a program that prints
/// lines, none), the mailbox that network events and signals arrive in,
/// the timers, the connection with its reconnects, and the file the program
/// shows (`FileWatcher`). It tells the program
/// what happened, performs the commands it answers with, draws its view by
/// diff, and sleeps in poll() until input, a delivery, the program's next
/// wake or the next reconnect. Main thread only.
final class Runtime<P: Program> {
    var program: P
    /// The command this is, for the sentences it prints (`neonsync tail: …`).
    let command: CommandName
    let mailbox: RuntimeMailbox
    /// The terminal of a screen program; nil for a program that prints lines.
    let screen: Screen?
    /// The program's frame, for a screen program.
    private let view: ((P, Duration, Theme) -> Buffer)?
    /// The pictures the frame's image boxes show, for a screen program.
    private var pictures: (P) -> [DocumentImage] = { _ in [] }
    /// The connection, for a program that connects.
    var link: Link?
    /// The file the program shows, watched for new versions.
    let watcher: FileWatcher?
    let epoch = ContinuousClock.now
    /// Set when the program ends: its exit status.
    var status: Int32?
    /// Lines for standard error while the screen owns the terminal, written
    /// once it is restored.
    var heldErrors: [String] = []
    private var signalSources: [any DispatchSourceSignal] = []
    /// The code highlighter, made when a document first has code to
    /// highlight (it loads the library's definitions).
    lazy var highlighter = CodeHighlighter()

    /// A program that prints lines; it connects when `link` is given.
    init(printing program: P, command: CommandName, mailbox: RuntimeMailbox, link: Link?) {
        self.program = program
        self.command = command
        self.mailbox = mailbox
        self.link = link
        screen = nil
        view = nil
        watcher = nil
    }

    fileprivate init(program: P, command: CommandName, mailbox: RuntimeMailbox, link: Link?, screen: Screen,
                     watcher: FileWatcher?, view: @escaping (P, Duration, Theme) -> Buffer) {
        self.program = program
        self.command = command
        self.mailbox = mailbox
        self.link = link
        self.screen = screen
        self.watcher = watcher
        self.view = view
    }

    var now: Duration { ContinuousClock.now - epoch }

    /// Runs the program until it ends, a stop signal, or the end of input;
    /// restores the terminal and returns the exit status.
    func run() -> Int32 {
        installSignals()
        if link != nil { connect() }
        while status == nil {
            update(.tick)
            guard status == nil else { break }
            if let at = link?.reconnectAt, now >= at {
                link?.reconnectAt = nil
                connect()
            }
            if let screen, let view { screen.draw(view(program, now, screen.theme), pictures: pictures(program)) }
            wait()
        }
        finish()
        return status ?? ExitStatus.done
    }

    /// Tells the program `event` and performs its answer.
    func update(_ event: ProgramEvent) {
        perform(program.update(event, at: now))
    }

    /// Sleeps until input, a delivery or the next deadline, then hands on
    /// what arrived.
    private func wait() {
        let deadlines = [program.nextWake(after: now), link?.reconnectAt, screen?.escapeDeadline, watcher?.due].compactMap { $0 }
        let timeout = deadlines.min().map { Int32(clamping: max(($0 - now).inNanoseconds / 1_000_000, 0) + 1) } ?? -1
        var fds = [pollfd(fd: mailbox.readFD, events: Int16(POLLIN), revents: 0)]
        if screen != nil { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        if let watcher { fds.append(pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)) }
        if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR {
            say("poll failed: \(String(cString: strerror(errno)))")
            status = ExitStatus.failed
            return
        }
        if let screen {
            if fds[1].revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 {
                guard let events = screen.readInput(at: now) else {
                    status = ExitStatus.done
                    return
                }
                #if DEBUG
                if !events.isEmpty { DebugTrap.keyRead() }
                #endif
                for event in events where status == nil { update(.input(event)) }
            } else {
                for event in screen.expiredEscape(at: now) where status == nil { update(.input(event)) }
            }
        }
        if fds[0].revents & Int16(POLLIN) != 0 {
            for delivery in mailbox.drain() where status == nil { deliver(delivery) }
        }
        if let watcher {
            if fds[fds.count - 1].revents & Int16(POLLIN) != 0 { watcher.drain(at: now) }
            switch watcher.take(at: now) {
            case let .success(version)?:
                if status == nil {
                    update(.fileChanged(text: version.text, images: version.pictures.images, unshown: version.pictures.unshown))
                }
            case let .failure(problem)?: if status == nil { update(.fileUnreadable(problem.description)) }
            case nil: break
            }
        }
    }

    private func deliver(_ delivery: Delivery) {
        switch delivery {
        case let .network(generation, event):
            received(event, generation: generation)
        case .resized:
            guard let screen else { return }
            let size = screen.size
            screen.invalidate()
            update(.resized(columns: size.columns, rows: size.rows))
        case .stop:
            status = ExitStatus.done
        case let .snippet(progress):
            update(.snippetOutput(progress))
        }
    }

    /// Says goodbye to the server, gives the terminal back and writes what
    /// waited for it.
    private func finish() {
        screen?.restore()
        for line in heldErrors { StandardStreams.error(line) }
        heldErrors = []
        closeConnection()
        for source in signalSources { source.cancel() }
    }

    /// SIGINT, SIGTERM and SIGHUP end the program with status 0; SIGWINCH
    /// redraws a screen at its new size. A program that prints lines
    /// ignores SIGPIPE: a closed output ends it instead.
    private func installSignals() {
        let queue = DispatchQueue(label: "neonsync.signals")
        let mailbox = mailbox
        var signals: [(Int32, Delivery)] = [(SIGTERM, .stop), (SIGHUP, .stop), (SIGINT, .stop)]
        if screen != nil {
            signals.insert((SIGWINCH, .resized), at: 0)
        } else {
            signal(SIGPIPE, SIG_IGN)
        }
        // Each source is registered on libdispatch's own thread after
        // resume(); a signal in between is ignored and lost (a SIGTERM right
        // after the first frame left the client running). Wait until every
        // source is registered, at most a second each, before going on.
        let registered = DispatchSemaphore(value: 0)
        for (number, delivery) in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { @Sendable in mailbox.post(delivery) }
            source.setRegistrationHandler { @Sendable in registered.signal() }
            source.resume()
            signalSources.append(source)
        }
        for _ in signals { _ = registered.wait(timeout: .now() + 1) }
    }
}

extension Runtime where P: ScreenProgram {
    /// A program that draws the terminal `screen` has taken over; the
    /// runtime restores it when the program ends.
    convenience init(drawing program: P, on screen: Screen, command: CommandName, mailbox: RuntimeMailbox,
                     link: Link?, watching watcher: FileWatcher? = nil) {
        self.init(program: program, command: command, mailbox: mailbox, link: link, screen: screen,
                  watcher: watcher) { program, time, theme in
            program.view(at: time, theme: theme)
        }
        pictures = { $0.pictures }
    }
}
