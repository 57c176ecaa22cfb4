import NeonSystem

extension TokenSecret {
    /// Reads the secret from `path` (`--secret-file`), a private file by
    /// `PrivateFile`'s rule, or a systemd credential; its content but the
    /// trailing line endings is the secret.
    public static func load(path: String) throws(SecretError) -> TokenSecret {
        let bytes: [UInt8]
        do {
            bytes = try PrivateFile.tokenSecret(path, trusted: SystemdCredential.contains(path))
        } catch {
            throw SecretError(description: error.description)
        }
        do {
            return try TokenSecret(bytes)
        } catch {
            throw SecretError(description: "the secret file \(path): \(error.description)")
        }
    }
}
