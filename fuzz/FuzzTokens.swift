// A libFuzzer target over room tokens (NeonServer's RoomToken): the text a
// hello carries, verified against a fixed secret as the gateway does, and a
// token minted for a room named by the input, verified back. Built and run
// by scripts/fuzz.sh with NeonCore and Sources/NeonServer/Auth/RoomToken.swift
// (HMAC-SHA256 from OpenSSL's libcrypto).
//
// Checks: a refusal is `unauthorized` or `token_expired`; a token that
// verifies signs again to a text that verifies to the same token; a token
// minted for any room verifies to exactly that token, and is refused once
// expired or under another secret.

import Foundation

private let secret = try! TokenSecret(Array("neonsync fuzzing secret, 32 byte".utf8))
private let otherSecret = try! TokenSecret(Array("another secret of at least 16 bytes".utf8))
private let now: Int64 = 1_800_000_000
private let roles: [Role] = [.presenter, .reader, .observer]

func fuzzTokens(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch RoomToken.verify(text, secret: secret, now: now) {
    case let .success(token):
        guard case .success(token) = RoomToken.verify(token.signed(with: secret), secret: secret, now: now) else {
            fatalError("a verified token does not verify once signed again: \(token)")
        }
    case let .failure(error):
        guard error.code == .unauthorized || error.code == .tokenExpired else {
            fatalError("a token was refused with \(error.code): \(error)")
        }
    }
    let minted = RoomToken(room: text, role: roles[size % roles.count], expires: now + Int64(size))
    let signed = minted.signed(with: secret)
    guard case .success(minted) = RoomToken.verify(signed, secret: secret, now: now - 1) else {
        fatalError("a token minted for room \(text.debugDescription) does not verify: \(signed)")
    }
    guard case .failure = RoomToken.verify(signed, secret: secret, now: minted.expires),
          case .failure = RoomToken.verify(signed, secret: otherSecret, now: now - 1) else {
        fatalError("an expired token or one under another secret was let in: \(signed)")
    }
}

/// Tokens the code mints: every role, a room of each kind (plain, every
/// room, non-ASCII, dots and newlines), live and expired.
func tokenSeeds() -> [[UInt8]] {
    let rooms = ["demo", "*", "talk-2026", "salle de réunion", "会议", "a.b.c", "line\nbreak", ""]
    return rooms.flatMap { room in
        roles.flatMap { role in
            [now + 3600, now - 1].map { Array(RoomToken(room: room, role: role, expires: $0).signed(with: secret).utf8) }
        }
    }
}
