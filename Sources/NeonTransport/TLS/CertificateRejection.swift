import CLibWebSockets
import NeonTransportCore

/// Why a client abandoned a TLS handshake: the server's certificate failed
/// verification. Reconnecting cannot fix this; the user must trust the
/// certificate's CA or reach the server under a name the certificate holds.
public struct CertificateRejection: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No trusted CA vouches for the certificate (self-signed, or signed
        /// by a CA that is not in the trust store).
        case untrustedIssuer
        /// The certificate does not name the host the client connected to.
        case hostnameMismatch
        /// The certificate's validity period is over.
        case expired
        /// The certificate's validity period has not begun.
        case notYetValid
        /// Any other verification failure (revoked, bad signature, …).
        case other
    }

    public var kind: Kind
    /// OpenSSL's `X509_V_ERR_*` code.
    public var code: Int32
    /// OpenSSL's words for the code, e.g. `unable to get local issuer certificate`.
    public var detail: String

    public init(kind: Kind, code: Int32, detail: String) {
        self.kind = kind
        self.code = code
        self.detail = detail
    }

    /// The rejection for an `X509_V_ERR_*` code.
    init(code: Int32) {
        switch code {
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE,
             X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_CERT_UNTRUSTED:
            kind = .untrustedIssuer
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            kind = .hostnameMismatch
        case X509_V_ERR_CERT_HAS_EXPIRED:
            kind = .expired
        case X509_V_ERR_CERT_NOT_YET_VALID:
            kind = .notYetValid
        default:
            kind = .other
        }
        self.code = code
        detail = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
    }

    public var description: String {
        switch kind {
        case .untrustedIssuer: "the server's certificate is not trusted (\(detail))"
        case .hostnameMismatch: "the server's certificate was not issued for this host name (\(detail))"
        case .expired: "the server's certificate has expired"
        case .notYetValid: "the server's certificate is not valid yet (check this machine's clock)"
        case .other: "the server's certificate failed verification (\(detail))"
        }
    }
}
