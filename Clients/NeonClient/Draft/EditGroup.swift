/// Which run of like edits the last one belongs to: a run of typing or of
/// deleting is one undo step.
enum EditGroup: Equatable, Sendable {
    /// Typing; `afterSpace` when the last typed character was whitespace,
    /// so more whitespace still joins the step and the next word does not.
    case typing(afterSpace: Bool)
    /// Backspace, one cluster at a time.
    case deletingBackward
    /// Forward delete, one cluster at a time.
    case deletingForward
}
