import Glibc

/// The Redis password from `--redis-password-file`: the file's first line,
/// refused when other users can read the file (like `--secret-file`).
public enum RedisPassword {
    public static func load(path: String) throws(RedisFailure) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw RedisFailure("cannot read the password file \(path): \(String(cString: strerror(errno))); write the Redis password into it and chmod 600 \(path)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw RedisFailure("the password file \(path) is not a regular file")
        }
        guard info.st_mode & 0o077 == 0 || SystemdCredential.contains(path) else {
            throw RedisFailure("the password file \(path) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)")
        }
        guard let file = fopen(path, "rb") else {
            throw RedisFailure("cannot open the password file \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4097)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else {
            throw RedisFailure("the password file \(path) is empty; write the Redis password on its first line")
        }
        var password = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while password.last == "\n" || password.last == "\r" { password.removeLast() }
        guard !password.isEmpty else {
            throw RedisFailure("the password file \(path) has an empty first line; write the Redis password there")
        }
        return password
    }
}
