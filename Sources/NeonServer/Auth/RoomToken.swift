import CCrypto
import Glibc
import NeonCore

/// A room token: who may say hello to which room, in which role, until when.
/// A server started with a secret requires one in every hello. The text form
/// is `nst1.<room, base64url>.<role>.<expiry, unix seconds>.<HMAC-SHA256, base64url>`
/// with the MAC over `nst1\n<room>\n<role>\n<expiry>` under the secret.
public struct RoomToken: Equatable, Sendable {
    /// The room it admits to; `*` admits to every room (and, for an
    /// observer, to watching every room).
    public var room: String
    /// The highest role it admits: a presenter token also admits readers and
    /// observers, a reader token observers.
    public var role: Role
    /// Unix seconds after which it no longer admits anyone.
    public var expires: Int64

    public static let version = "nst1"

    public init(room: String, role: Role, expires: Int64) {
        self.room = room; self.role = role; self.expires = expires
    }

    /// The token's text, signed with `secret`.
    public func signed(with secret: TokenSecret) -> String {
        let mac = secret.mac(Array(signedText.utf8))
        return [Self.version, Base64URL.encode(Array(room.utf8)), role.rawValue, String(expires), Base64URL.encode(mac)]
            .joined(separator: ".")
    }

    private var signedText: String { "\(Self.version)\n\(room)\n\(role.rawValue)\n\(expires)" }

    /// Whether it lets a hello to `room` in `role` in.
    public func admits(room: String, role: Role) -> Bool {
        (self.room == Hub.everyRoom || self.room == room) && role.rank <= self.role.rank
    }

    /// Reads and checks a token's text: its form, its signature under
    /// `secret`, and its expiry against `now` (unix seconds).
    public static func verify(_ text: String, secret: TokenSecret, now: Int64) -> Result<RoomToken, ProtocolError> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == Self.version,
              let roomBytes = Base64URL.decode(parts[1]), let room = String(validating: roomBytes, as: UTF8.self),
              let role = Role(rawValue: String(parts[2])), let expires = Int64(parts[3]),
              let mac = Base64URL.decode(parts[4]) else {
            return .failure(ProtocolError(.unauthorized,
                "the token is not a NeonSync room token; ask the operator for one made with neonsyncd token"))
        }
        let token = RoomToken(room: room, role: role, expires: expires)
        guard secret.verify(mac, for: Array(token.signedText.utf8)) else {
            return .failure(ProtocolError(.unauthorized,
                "the token's signature does not match this server's secret; ask its operator for a new token"))
        }
        guard now < expires else {
            return .failure(ProtocolError(.tokenExpired,
                "the token expired \(now - expires) s ago; ask the operator for a new one (neonsyncd token --ttl)"))
        }
        return .success(token)
    }
}

extension Role {
    /// Observers < readers < presenters: what a token of this role admits.
    var rank: Int {
        switch self {
        case .observer: 0
        case .reader: 1
        case .presenter: 2
        }
    }
}

/// The server's token secret: the bytes of `--secret-file`.
public struct TokenSecret: Sendable {
    public static let minimumLength = 16
    let bytes: [UInt8]

    /// A secret of `bytes`; at least `minimumLength` of them.
    public init(_ bytes: [UInt8]) throws(NeonError) {
        guard bytes.count >= Self.minimumLength else {
            throw NeonError("the secret is \(bytes.count) bytes; use at least \(Self.minimumLength), e.g. head -c 32 /dev/urandom | base64 > FILE")
        }
        self.bytes = bytes
    }

    func mac(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = bytes.withUnsafeBytes { key in
            data.withUnsafeBufferPointer { neon_hmac_sha256(key.baseAddress, Int32(key.count), $0.baseAddress, $0.count, &out) }
        }
        precondition(ok == 1, "HMAC-SHA256 failed")
        return out
    }

    /// Compares in constant time.
    func verify(_ candidate: [UInt8], for data: [UInt8]) -> Bool {
        let expected = mac(data)
        return candidate.count == expected.count && CRYPTO_memcmp(candidate, expected, expected.count) == 0
    }
}


/// Base64 with the URL alphabet and no padding (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for position in 0...chunk.count {
                out.append(alphabet[(value >> (18 - 6 * position)) & 63])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var value = 0
        var bits = 0
        for scalar in text.utf8 {
            guard let digit = alphabet.firstIndex(of: scalar) else { return nil }
            value = (value << 6 | digit) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((value >> bits) & 0xFF))
            }
        }
        return bits >= 6 ? nil : out
    }
}
