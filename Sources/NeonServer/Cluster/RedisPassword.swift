import NeonCore
import NeonSystem

/// The Redis password from `--redis-password-file`: the file's first line,
/// a private file by `PrivateFile`'s rule (or a systemd credential).
public enum RedisPassword {
    public static func load(path: String) throws(NeonError) -> String {
        try PrivateFile.redisPassword(path, trusted: SystemdCredential.contains(path))
    }
}
