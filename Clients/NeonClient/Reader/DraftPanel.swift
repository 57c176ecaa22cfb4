/// The reader's draft panel under the document: closed, open beside the
/// document that has the keys (`E` closes it), or focused for typing (`e`;
/// Esc gives the keys back to the document).
public enum DraftPanel: Equatable, Sendable {
    case closed
    case open
    case focused

    public var isOpen: Bool { self != .closed }
}
