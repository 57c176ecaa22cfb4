import NeonClient
import NeonCore
import NeonTUI

/// The sizes of the sweep: every height from 1 to 40 at each width, in
/// order, so that a resize goes from each size to the next.
enum SweepSizes {
    static let widths = [1, 2, 5, 10, 20, 30, 40, 50, 60, 80, 100, 120, 160, 200, 300]
    static let heights = Array(1...40)
    static let all: [Size] = widths.flatMap { width in heights.map { Size(columns: width, rows: $0) } }

    struct Size: Hashable, Sendable, CustomStringConvertible {
        var columns: Int
        var rows: Int
        var description: String { "\(columns)x\(rows)" }
    }
}

/// What the sweep saw: how many frames it checked, of which screens,
/// documents and states, and every frame that broke an invariant.
struct SweepReport {
    var frames = 0
    /// Events the programs were given.
    var events = 0
    var screens: Set<String> = []
    var documents: Set<String> = []
    var states: Set<String> = []
    var sizes: Set<SweepSizes.Size> = []
    var problems: [String] = []

    /// Checks one frame: the size asked for, and no fault while drawing it
    /// (no widget wrote outside its area, every cut text ends in "…"); in
    /// an ASCII theme, no character outside ASCII but the document's own
    /// (`content`: its text, the names and the draft typed).
    mutating func check(_ buffer: Buffer, _ size: SweepSizes.Size, screen: String, document: String, state: String,
                        ascii: Bool = false, content: Set<Character> = []) {
        frames += 1
        screens.insert(screen)
        documents.insert(document)
        states.insert(screen + " · " + state)
        sizes.insert(size)
        let what = "\(screen) of \(document) at \(size), \(state)"
        if buffer.width != size.columns || buffer.height != size.rows {
            problem("\(what): the frame is \(buffer.width)x\(buffer.height)")
        }
        if !buffer.faults.isEmpty {
            problem("\(what): \(buffer.faults.strays) writes outside their area, \(buffer.faults.bareCuts) cuts without an ellipsis: "
                    + buffer.faults.examples.joined(separator: "; "))
        }
        if ascii, let line = buffer.lines().first(where: { $0.contains { !$0.isASCII && !content.contains($0) } }) {
            problem("\(what): the ASCII theme drew \(line.filter { !$0.isASCII && !content.contains($0) }) in \"\(line)\"")
        }
    }

    mutating func problem(_ text: String) {
        if problems.count < 40 { problems.append(text) } else if problems.count == 40 { problems.append("…") }
    }
}

/// One screen program driven as the runtime drives it: events through
/// `update` (each followed by a tick, as a batch is), time moving 30 ms an
/// event, frames drawn with `view` and checked.
struct SweepRun<P: ScreenProgram> {
    var model: P
    var size: SweepSizes.Size
    let screen: String
    let document: String
    let theme: Theme
    /// The characters of the document and the names: not the screen's own.
    let content: Set<Character>
    var now: Duration = .seconds(1)
    private(set) var events = 0

    init(_ model: P, size: SweepSizes.Size, screen: String, document: String, theme: Theme, content: Set<Character>) {
        self.model = model
        self.size = size
        self.screen = screen
        self.document = document
        self.theme = theme
        self.content = content
    }

    mutating func send(_ event: ProgramEvent) {
        _ = model.update(event, at: now)
        _ = model.update(.tick, at: now)
        now += .milliseconds(30)
        events += 1
    }

    mutating func press(_ keys: Key...) {
        for key in keys { send(.input(.key(key))) }
    }

    mutating func type(_ text: String) {
        for character in text { send(.input(.key(.character(character)))) }
    }

    mutating func receive(_ message: ServerMessage) {
        send(.received(message, text: ""))
    }

    /// Lets `duration` pass (animations end, the bar turns into the wheel).
    mutating func wait(_ duration: Duration) {
        now += duration
        _ = model.update(.tick, at: now)
    }

    mutating func resize(to next: SweepSizes.Size) {
        size = next
        send(.resized(columns: next.columns, rows: next.rows))
    }

    /// Draws the frame now and checks it.
    func look(_ state: String, _ report: inout SweepReport) {
        report.check(model.view(at: now, theme: theme), size, screen: screen, document: document, state: state,
                     ascii: theme.ascii, content: content)
    }
}

/// A state of a screen's script: its name and how to reach it from the
/// state before.
struct SweepStep<P: ScreenProgram> {
    let name: String
    let act: (inout SweepRun<P>) -> Void

    init(_ name: String, _ act: @escaping (inout SweepRun<P>) -> Void) {
        self.name = name
        self.act = act
    }
}

/// One screen through every size of the sweep, in order: at each size the
/// program is resized from the size before (or, every `freshEvery` sizes,
/// made anew at this size and set up), takes the next state of its script
/// (the script starts again at its end), and its frame is drawn and
/// checked. So every size is drawn, every resize from a size to the next
/// is made, and each state is drawn at sizes spread over every width and
/// height.
struct SweepChain<P: ScreenProgram> {
    let screen: String
    let document: String
    /// The characters of the document and the names (`SweepRun.content`).
    let content: Set<Character>
    let make: (SweepSizes.Size) -> P
    let setUp: (inout SweepRun<P>) -> Void
    let steps: [SweepStep<P>]
    var freshEvery = 8

    func run(themes: [Theme], _ report: inout SweepReport) {
        var run: SweepRun<P>?
        var step = 0
        for (index, size) in SweepSizes.all.enumerated() {
            if var current = run, index % freshEvery != 0 {
                current.resize(to: size)
                run = current
            } else {
                report.events += run?.events ?? 0
                let theme = themes[index / freshEvery % themes.count]
                var fresh = SweepRun(make(size), size: size, screen: screen, document: document, theme: theme, content: content)
                setUp(&fresh)
                fresh.look("made at this size", &report)
                run = fresh
            }
            guard var current = run, !steps.isEmpty else { continue }
            let next = steps[step % steps.count]
            next.act(&current)
            current.look(next.name, &report)
            run = current
            step += 1
        }
        report.events += run?.events ?? 0
    }
}
