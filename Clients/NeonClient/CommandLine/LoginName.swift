import NeonCore

/// The name a client goes by when no `--name` is given: the user's login
/// name, as the system tells it.
public enum LoginName {
    /// When no source names a user the server would take.
    public static let fallback = "reader"

    /// The first of `candidates` (getlogin(), $USER, the password
    /// database, in that order) that the server takes as a name, or
    /// `fallback`.
    public static func choose(_ candidates: [String?]) -> String {
        candidates.lazy.compactMap { $0 }.first { Hub.problem(withName: $0) == nil } ?? fallback
    }
}
