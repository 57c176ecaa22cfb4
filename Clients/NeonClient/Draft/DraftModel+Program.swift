/// The full-screen draft editor (`draft`) as the runtime drives it.
extension DraftModel: EventDrivenScreen {}
