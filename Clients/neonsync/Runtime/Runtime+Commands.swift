import NeonClient
import NeonCore
import NeonRender
import NeonSystem

/// What the program's commands do.
extension Runtime {
    func perform(_ commands: [ClientCommand]) {
        for command in commands where status == nil {
            switch command {
            case let .send(message):
                send(message)
            case .quit:
                status = ExitStatus.done
            case let .exit(code):
                status = code
            case let .refused(refusal):
                say(refusal.sentence)
                status = Refusal.exitStatus
            case .reconnect:
                reconnect()
            case .listRooms:
                listRooms()
            case let .print(line):
                // A closed output ends the program: no one reads it.
                if !StandardStreams.output(line) { status = ExitStatus.done }
            case let .printError(line):
                error(line)
            case let .runSnippet(snippet):
                SnippetRunner.start(snippet, posting: mailbox)
            case let .highlight(document, version):
                update(.highlighted(highlighter.highlights(of: document), version: version))
            case let .writeTerminal(bytes):
                if screen != nil { Terminal.write(bytes) }
            }
        }
    }

    /// `neonsync COMMAND: sentence` on standard error.
    func say(_ sentence: String) {
        error("neonsync \(command.rawValue): \(sentence)")
    }

    /// A line for standard error: at once, or once the screen is restored.
    func error(_ line: String) {
        if screen != nil {
            heldErrors.append(line)
        } else {
            StandardStreams.error(line)
        }
    }
}
