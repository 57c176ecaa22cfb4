import NeonCore
import NeonTUI

/// A client program as the runtime drives it, in the Elm architecture: the
/// runtime tells it what happened (`update`), performs the commands it
/// answers with, and wakes it when it asks to be (`nextWake`). Pure: time
/// comes with every event, and nothing here touches a socket or the
/// terminal. A program that prints lines (`tail`) answers with `.print`;
/// one that draws the terminal is also a `ScreenProgram`.
public protocol Program: Sendable {
    mutating func update(_ event: ProgramEvent, at time: Duration) -> [ClientCommand]
    /// When the program next changes by itself (an animation frame, a
    /// notice expiring, a deadline); nil when only events change it.
    func nextWake(after time: Duration) -> Duration?
    /// The room the program joins, which the runtime names in the
    /// connection's URL (`?room=`) so that a proxy in front of a cluster can
    /// send a room's members to one node; nil when it joins no room or every
    /// room. The hello's room is still the room joined.
    var routingRoom: String? { get }
}

extension Program {
    public var routingRoom: String? { nil }
}

/// A program that draws the whole terminal: the runtime diffs `view` onto
/// it after every batch of events.
public protocol ScreenProgram: Program {
    func view(at time: Duration, theme: Theme) -> Buffer
    /// The pictures the view's image boxes show (`Buffer.images` names
    /// them): the document's, for a terminal that draws them.
    var pictures: [DocumentImage] { get }
}

extension ScreenProgram {
    public var pictures: [DocumentImage] { [] }
}
