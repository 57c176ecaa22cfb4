import CLibWebSockets
import Glibc
import NeonLock
import NeonTransportCore

/// libwebsockets' own logging, which is process-wide.
///
/// By default only lws errors and warnings reach stderr; call ``route(_:to:)``
/// before starting a server or client context to change that.
public enum TransportLog {
    /// Which lws log levels to emit.
    public struct Levels: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let error = Levels(rawValue: LLL_ERR)
        public static let warning = Levels(rawValue: LLL_WARN)
        public static let notice = Levels(rawValue: LLL_NOTICE)
        public static let info = Levels(rawValue: LLL_INFO)
        /// The default: errors and warnings.
        public static let quiet: Levels = [.error, .warning]
    }

    /// A sink for lws log lines: the level bit and the line, without its
    /// trailing newline.
    public typealias Handler = @Sendable (Levels, String) -> Void

    private struct State {
        var configured = false
        var levels = Levels.quiet
        var handler: Handler?
    }

    private static let state = Locked(State())

    /// Emits `levels` to `handler`, or to stderr when `handler` is `nil`.
    public static func route(_ levels: Levels, to handler: Handler? = nil) {
        state.withLock { state in
            state.configured = true
            state.levels = levels
            state.handler = handler
            lws_set_log_level(levels.rawValue, handler == nil ? lwsl_emit_stderr : emit)
        }
    }

    /// Applies the quiet default unless ``route(_:to:)`` was called.
    static func applyDefaultLevels() {
        state.withLock { state in
            guard !state.configured else { return }
            state.configured = true
            lws_set_log_level(Levels.quiet.rawValue, lwsl_emit_stderr)
        }
    }

    /// A line of NeonTransport's own (a refused handshake, say), through
    /// the same route as libwebsockets' lines, prefixed `neontransport: `;
    /// dropped when `level` is not routed.
    static func note(_ level: Levels, _ line: String) {
        let (levels, handler) = state.withLock { ($0.levels, $0.handler) }
        guard levels.contains(level) else { return }
        let text = "neontransport: " + line
        if let handler {
            handler(level, text)
        } else {
            let bytes = Array((text + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    private static let emit: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line, let handler = state.withLock({ $0.handler }) else { return }
        var text = String(cString: line)
        while text.last == "\n" {
            text.removeLast()
        }
        handler(Levels(rawValue: level), text)
    }
}
