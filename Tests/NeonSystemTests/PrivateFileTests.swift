import Foundation
import NeonCore
import NeonSystem
import NeonTestSupport
import Testing

@Suite("Private files: one rule for the token, the token secret and the Redis password")
struct PrivateFileTests {
    @Test("only the owner's bits may be set: every group or other bit, read, write or run, is refused and named")
    func rule() {
        for mode: UInt32 in [0o600, 0o400, 0o700, 0o200] {
            #expect(PrivateFile.exposure(ofMode: mode) == nil, "\(String(mode, radix: 8))")
        }
        let refused: [(UInt32, String)] = [
            (0o640, "can be read by its group"), (0o620, "can be written by its group"), (0o604, "can be read by others"),
            (0o602, "can be written by others"), (0o660, "can be read and written by its group"),
            (0o644, "can be read by group and others"), (0o666, "can be read and written by group and others"),
            (0o624, "can be written by its group and read by others"), (0o601, "can be run by others"),
            (0o777, "can be read and written and run by group and others"),
        ]
        for (mode, phrase) in refused {
            #expect(PrivateFile.exposure(ofMode: mode) == phrase, "\(String(mode, radix: 8))")
        }
    }

    @Test("each caller reads what it needs: the token trimmed, the secret whole but its line endings, the password's first line")
    func callers() throws {
        let token = try fileWithMode(" v1.t.reader.x \r\nnext\n", 0o600)
        defer { unlink(token) }
        #expect(try PrivateFile.roomToken(token) == "v1.t.reader.x")
        let secret = try fileWithMode("line one\nline two\n\n", 0o400)
        defer { unlink(secret) }
        #expect(try PrivateFile.tokenSecret(secret, trusted: false) == Array("line one\nline two".utf8))
        let password = try fileWithMode("p@ss word\r\nignored\n", 0o600)
        defer { unlink(password) }
        #expect(try PrivateFile.redisPassword(password, trusted: false) == "p@ss word")
    }

    @Test("a group-writable file is refused by every caller with the same sentence shape; a systemd credential is taken as systemd made it")
    func sameRule() throws {
        let path = try fileWithMode("x\n", 0o620)
        defer { unlink(path) }
        let fix = "(mode 620); run chmod 600 \(path) so only you can read it, then try again"
        #expect(throws: NeonError("--token-file \(path) can be written by its group \(fix)")) { try PrivateFile.roomToken(path) }
        #expect(throws: NeonError("the secret file \(path) can be written by its group \(fix)")) {
            try PrivateFile.tokenSecret(path, trusted: false)
        }
        #expect(throws: NeonError("the password file \(path) can be written by its group \(fix)")) {
            try PrivateFile.redisPassword(path, trusted: false)
        }
        #expect(try PrivateFile.redisPassword(path, trusted: true) == "x")
    }

    @Test("a directory, a missing file and an empty one are refused naming the file and what to do")
    func refusals() throws {
        #expect(throws: NeonError("the password file / is not a regular file; give a file that holds the Redis password")) {
            try PrivateFile.redisPassword("/", trusted: false)
        }
        let missing = NSTemporaryDirectory() + "neonsync-missing-\(UUID().uuidString)"
        #expect(throws: NeonError("the secret file \(missing) cannot be read (No such file or directory); create it with "
                                         + "head -c 32 /dev/urandom | base64 > \(missing), then run chmod 600 \(missing)")) {
            try PrivateFile.tokenSecret(missing, trusted: false)
        }
        let empty = try fileWithMode("\nsecond\n", 0o600)
        defer { unlink(empty) }
        #expect(throws: NeonError("the password file \(empty) is empty (or its first line is); write the Redis password "
                                         + "on its first line, and run chmod 600 \(empty)")) {
            try PrivateFile.redisPassword(empty, trusted: false)
        }
    }
}
