/// Whether a command that draws a screen can run where it was started: it
/// needs a terminal on standard input and output, and one that can move
/// its cursor (not TERM=dumb, which has no line mode to fall back to here).
public enum TerminalCheck {
    /// What stands in the way, as one sentence naming the way out; nil when
    /// the command can draw.
    public static func problem(for command: CommandName, inputIsTerminal: Bool, outputIsTerminal: Bool,
                               term: String?) -> String? {
        let instead = command == .replay
            ? "neonsync replay LOGFILE --summary prints without one"
            : "neonsync tail ROOM prints a room's events as lines without one"
        if !inputIsTerminal || !outputIsTerminal {
            let which = !inputIsTerminal && !outputIsTerminal ? "standard input and output are not terminals"
                : !outputIsTerminal ? "standard output is not a terminal" : "standard input is not a terminal"
            return "draws a screen, but \(which); run it in a terminal window or tmux, without redirecting it (\(instead))"
        }
        if term == "dumb" {
            return "draws a screen, but TERM=dumb says this terminal cannot move its cursor; run it in a terminal such as xterm or tmux, or set TERM to your terminal's type (\(instead))"
        }
        return nil
    }
}
