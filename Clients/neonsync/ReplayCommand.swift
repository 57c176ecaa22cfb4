import Dispatch
import Foundation
import Glibc
import NeonClient
import NeonTUI

/// `neonsync replay LOGFILE`: a server log's room events through the
/// monitor's screen at `speed` times real time, or (`--summary`) a printed
/// summary that needs no terminal.
final class ReplayCommand {
    private let file: String
    private let entries: [ServerLogEntry]
    /// The room replayed, or nil for every room in the log.
    private let room: String?
    private let speed: Double
    private let theme: Theme
    private let mailbox: Mailbox
    private let epoch = ContinuousClock.now
    private var signalSources: [any DispatchSourceSignal] = []

    /// Reads and checks the log; a missing, unreadable or foreign file is a
    /// sentence naming it.
    static func load(_ file: String) throws(LogFileError) -> [ServerLogEntry] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw LogFileError(description: "cannot read the log file \(file); give the path of a neonsyncd --log file")
        }
        return try ServerLogEntry.parse(String(decoding: data, as: UTF8.self), file: file)
    }

    init(file: String, entries: [ServerLogEntry], room: String?, speed: Double, theme: Theme, mailbox: Mailbox) {
        self.file = file
        self.entries = entries.filter { $0.room != nil && (room == nil || $0.room == room) }
        self.room = room
        self.speed = speed
        self.theme = theme
        self.mailbox = mailbox
    }

    private var now: Duration { ContinuousClock.now - epoch }

    /// Plays the log until its end, then waits for q; returns the status.
    func run() -> Int32 {
        installSignals()
        let size = Terminal.size()
        var model = MonitorModel(room: room, name: "replay", columns: size.columns, rows: size.rows,
                                 source: "replay ×\(Self.format(speed))")
        model.watchWithoutConnection()
        let start = entries.first?.milliseconds ?? 0
        let scope = room.map { "room \($0)" } ?? "every room"
        model.note("replaying \(file), \(scope), \(entries.count) records", at: .zero)
        var next = 0
        var decoder = KeyDecoder()
        var previous: Buffer?
        while true {
            while next < entries.count, let ms = entries[next].milliseconds, due(ms - start) <= now {
                LogReplay.apply(entries[next], to: &model, at: .milliseconds(ms - start))
                next += 1
                if next == entries.count { model.source = "end of log · replay ×\(Self.format(speed))" }
            }
            let frame = model.view(at: now, theme: theme)
            let bytes = FrameWriter.diff(from: previous, to: frame)
            if !bytes.isEmpty { Terminal.write(bytes) }
            previous = frame
            var wakes = [model.nextWake(after: now)].compactMap { $0 }
            if next < entries.count, let ms = entries[next].milliseconds { wakes.append(due(ms - start)) }
            let timeout = wakes.min().map { Int32(clamping: max(($0 - now).inNanoseconds / 1_000_000, 0) + 1) } ?? -1
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: mailbox.readFD, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, timeout) < 0 && errno != EINTR { return 1 }
            if fds[0].revents & Int16(POLLIN | POLLHUP) != 0 {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let n = read(STDIN_FILENO, &bytes, bytes.count)
                if n <= 0 { return 0 }
                var events = decoder.feed(bytes[0..<n])
                if bytes[n - 1] == 0x1B { events += decoder.flush() }
                for event in events where model.handle(event, at: now).contains(.quit) { return 0 }
            }
            for event in mailbox.drain() {
                switch event {
                case .terminate: return 0
                case .resized:
                    let size = Terminal.size()
                    previous = nil
                    _ = model.resize(columns: size.columns, rows: size.rows, at: now)
                case .network: break
                }
            }
        }
    }

    /// When a record `offset` milliseconds into the log is shown.
    private func due(_ offset: Int64) -> Duration {
        .nanoseconds(Int64((Double(offset) * 1_000_000 / speed).rounded()))
    }

    /// `10`, `2.5`: a speed without a needless `.0`.
    static func format(_ speed: Double) -> String {
        speed == speed.rounded() && speed < 1e9 ? String(Int(speed)) : String(speed)
    }

    private func installSignals() {
        let queue = DispatchQueue(label: "neonsync.replay.signals")
        let mailbox = mailbox
        for (sig, event) in [(SIGWINCH, AppEvent.resized), (SIGTERM, .terminate), (SIGHUP, .terminate), (SIGINT, .terminate)] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { @Sendable in mailbox.post(event) }
            source.resume()
            signalSources.append(source)
        }
    }
}
