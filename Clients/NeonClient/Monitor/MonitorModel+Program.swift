import NeonCore

/// The live dashboard (`monitor`) as the runtime drives it. It changes only
/// on events and its own wakes, so time passing asks nothing of it, and it
/// shows no file: the runtime watches none for it.
extension MonitorModel: EventDrivenScreen {
    public mutating func tick(at time: Duration) -> [ClientCommand] { [] }
    public mutating func fileChanged(_ text: String, images: [DocumentImage], unshown: [UnshownImage],
                                     at time: Duration) -> [ClientCommand] { [] }
    public mutating func fileUnreadable(_ problem: String, at time: Duration) -> [ClientCommand] { [] }
}
