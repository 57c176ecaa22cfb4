import NeonCore

/// The full-screen draft editor (`draft`) as the runtime drives it.
extension DraftModel: EventDrivenScreen {
    /// The draft editor shows no file: the runtime watches none for it.
    public mutating func fileChanged(_ text: String, images: [DocumentImage], unshown: [UnshownImage],
                                     at time: Duration) -> [ClientCommand] { [] }
    public mutating func fileUnreadable(_ problem: String, at time: Duration) -> [ClientCommand] { [] }
}
