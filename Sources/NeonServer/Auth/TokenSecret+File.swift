import NeonCore
import NeonSystem

extension TokenSecret {
    /// Reads the secret from `path` (`--secret-file`), a private file by
    /// `PrivateFile`'s rule, or a systemd credential; its content but the
    /// trailing line endings is the secret.
    public static func load(path: String) throws(NeonError) -> TokenSecret {
        let bytes = try PrivateFile.tokenSecret(path, trusted: SystemdCredential.contains(path))
        do {
            return try TokenSecret(bytes)
        } catch {
            throw error.at("the secret file \(path)")
        }
    }
}
