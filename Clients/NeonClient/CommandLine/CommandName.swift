/// The commands of `neonsync` that this module describes (`bench` keeps
/// its own flags and help beside its load generator).
public enum CommandName: String, CaseIterable, Sendable {
    case read, join, present, follow, draft, tail, monitor, replay, notes

    /// Whether the command draws a screen (and so needs a terminal).
    public var drawsScreen: Bool { self != .tail }

    /// Whether the command connects to a server.
    public var connects: Bool { self != .replay }
}
