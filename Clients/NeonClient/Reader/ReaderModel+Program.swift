/// The reader (`read`, `join`, `present`, `follow`) as the runtime drives it.
extension ReaderModel: EventDrivenScreen {}
