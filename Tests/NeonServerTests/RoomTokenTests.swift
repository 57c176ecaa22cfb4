import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import Testing

@Suite("Room tokens")
struct RoomTokenTests {
    let secret = try! TokenSecret(Array("0123456789abcdef-test-secret".utf8))
    let other = try! TokenSecret(Array("another-secret-of-enough-bytes".utf8))

    @Test("a signed token verifies and admits its room at its role and below, nothing else")
    func roundTrip() throws {
        let token = RoomToken(room: "team-notes", role: .reader, expires: 2_000)
        let text = token.signed(with: secret)
        #expect(text.hasPrefix("nst1.dGVhbS1ub3Rlcw.reader.2000."))
        let verified = try RoomToken.verify(text, secret: secret, now: 1_999).get()
        #expect(verified == token)
        #expect(verified.admits(room: "team-notes", role: .reader) && verified.admits(room: "team-notes", role: .observer))
        #expect(!verified.admits(room: "team-notes", role: .presenter))
        #expect(!verified.admits(room: "other", role: .reader))
        let every = RoomToken(room: "*", role: .observer, expires: 2_000)
        #expect(every.admits(room: "*", role: .observer) && every.admits(room: "any", role: .observer))
        #expect(!every.admits(room: "any", role: .reader))
        #expect(RoomToken(room: "r", role: .presenter, expires: 1).admits(room: "r", role: .presenter))
    }

    @Test("a token past its expiry, signed with another secret, altered, or malformed is refused with the reason")
    func refusals() {
        let text = RoomToken(room: "r", role: .presenter, expires: 1_000).signed(with: secret)
        #expect(RoomToken.verify(text, secret: secret, now: 1_000).failureCode == .tokenExpired)
        #expect(RoomToken.verify(text, secret: other, now: 10).failureCode == .unauthorized)
        let promoted = text.replacingOccurrences(of: ".presenter.", with: ".reader.")
        #expect(RoomToken.verify(promoted, secret: secret, now: 10).failureCode == .unauthorized)
        let extended = text.replacingOccurrences(of: ".1000.", with: ".9999999999.")
        #expect(RoomToken.verify(extended, secret: secret, now: 10).failureCode == .unauthorized)
        for bad in ["", "nst1", "nst1.a.b.c.d", "nst2." + text.dropFirst(5), text + ".x", text.replacingOccurrences(of: "nst1.", with: "nst1.%%")] {
            #expect(RoomToken.verify(bad, secret: secret, now: 10).failureCode == .unauthorized, "\(bad)")
        }
        if case let .failure(error) = RoomToken.verify(text, secret: other, now: 10) {
            #expect(error.message.contains("does not match this server's secret"))
        }
    }

    @Test("base64url round-trips every length and refuses characters outside its alphabet")
    func base64url() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(Substring(text)) == bytes)
        }
        #expect(Base64URL.encode(Array("team-notes".utf8)) == "dGVhbS1ub3Rlcw")
        #expect(Base64URL.decode("ab+c") == nil && Base64URL.decode("a") == nil)
    }

    @Test("a secret file must be private, and long enough; its trailing newline is not part of it")
    func secretFile() throws {
        let path = NSTemporaryDirectory() + "neonsync-secret-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "0123456789abcdef-test-secret\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        #expect(throws: NeonError.self) { try TokenSecret.load(path: path) }
        do {
            _ = try TokenSecret.load(path: path)
        } catch {
            #expect(error.description.contains("chmod 600"))
        }
        chmod(path, 0o600)
        let loaded = try TokenSecret.load(path: path)
        let text = RoomToken(room: "r", role: .reader, expires: 99).signed(with: secret)
        #expect((try? RoomToken.verify(text, secret: loaded, now: 1).get()) != nil, "the newline is dropped")
        try "short\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        #expect(throws: NeonError.self) { try TokenSecret.load(path: path) }
        #expect(throws: NeonError.self) { try TokenSecret.load(path: path + "-missing") }
    }
}

extension Result where Failure == ProtocolError {
    var failureCode: ErrorCode? {
        if case let .failure(error) = self { error.code } else { nil }
    }
}
