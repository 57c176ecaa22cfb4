import NeonCore

/// The project's three private files, each read by the one rule of
/// `PrivateFile`; what differs is how a sentence names each and what goes in it.
extension PrivateFile {
    /// `neonsync --token-file PATH`: the room token, the file's first line
    /// without surrounding spaces.
    public static func roomToken(_ path: String) throws(NeonError) -> String {
        let file = PrivateFile(path, name: "--token-file \(path)", holds: "the room token",
                               fill: "write the room token (the last line neonsyncd token prints) on its first line")
        let line = try file.firstLine()
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let token = String(line.drop(while: blank).reversed().drop(while: blank).reversed())
        guard !token.isEmpty else { throw file.empty }
        return token
    }

    /// `neonsyncd --secret-file PATH` (and `neonsyncd token`): the token
    /// secret, the whole file (up to 64 KiB) but its trailing line endings. `trusted`: a systemd
    /// credential.
    public static func tokenSecret(_ path: String, trusted: Bool) throws(NeonError) -> [UInt8] {
        var bytes = try PrivateFile(path, name: "the secret file \(path)", holds: "the token secret",
                                    fill: "create it with head -c 32 /dev/urandom | base64 > \(path)",
                                    trusted: trusted).contents()
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return bytes
    }

    /// `neonsyncd --redis-password-file PATH`: the Redis password, the
    /// file's first line. `trusted`: a systemd credential.
    public static func redisPassword(_ path: String, trusted: Bool) throws(NeonError) -> String {
        try PrivateFile(path, name: "the password file \(path)", holds: "the Redis password",
                        fill: "write the Redis password on its first line", trusted: trusted).firstLine()
    }
}
