import CLibWebSockets
import Glibc
import NeonTransportCore

/// Checks the PEM files a TLS setup names before libwebsockets loads them,
/// so a bad file gets a sentence naming the file and the reason (lws only
/// logs a line and fails to create the vhost or context).
enum TLSFiles {
    /// Checks that the certificate and key load and belong together.
    static func checkServer(_ tls: TLSConfiguration) throws(TransportError) {
        let certificate = tls.certificatePath
        let key = tls.privateKeyPath
        if let problem = unreadable(certificate) {
            throw .tlsCertificate(path: certificate, reason: problem)
        }
        if let problem = unreadable(key) {
            throw .tlsPrivateKey(path: key, reason: problem)
        }
        let withCertificate = try context(TLS_server_method())
        defer { SSL_CTX_free(withCertificate) }
        guard SSL_CTX_use_certificate_chain_file(withCertificate, certificate) == 1 else {
            throw .tlsCertificate(path: certificate, reason: "it holds no PEM certificate (\(openSSLReason()))")
        }
        let keyAlone = try context(TLS_server_method())
        defer { SSL_CTX_free(keyAlone) }
        guard SSL_CTX_use_PrivateKey_file(keyAlone, key, SSL_FILETYPE_PEM) == 1 else {
            throw .tlsPrivateKey(
                path: key,
                reason: "it holds no PEM private key, or the key is protected by a passphrase, which is not supported (\(openSSLReason()))")
        }
        guard SSL_CTX_use_PrivateKey_file(withCertificate, key, SSL_FILETYPE_PEM) == 1,
              SSL_CTX_check_private_key(withCertificate) == 1
        else {
            ERR_clear_error()
            throw .tlsKeyMismatch(certificate: certificate, key: key)
        }
    }

    /// Checks that a file of trusted CA certificates loads.
    static func checkTrust(_ path: String) throws(TransportError) {
        if let problem = unreadable(path) {
            throw .tlsTrustFile(path: path, reason: problem)
        }
        let probe = try context(TLS_client_method())
        defer { SSL_CTX_free(probe) }
        guard SSL_CTX_load_verify_locations(probe, path, nil) == 1 else {
            throw .tlsTrustFile(path: path, reason: "it holds no PEM certificate (\(openSSLReason()))")
        }
    }

    /// `nil` when `path` is a file this process can open for reading;
    /// otherwise why not.
    static func unreadable(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        if info.st_mode & S_IFMT == S_IFDIR {
            return "it is a directory, not a file"
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        close(fd)
        return nil
    }

    /// A throwaway SSL_CTX that never prompts for a passphrase.
    private static func context(_ method: OpaquePointer?) throws(TransportError) -> OpaquePointer {
        guard let context = SSL_CTX_new(method) else {
            throw .contextCreationFailed("OpenSSL could not create an SSL_CTX (\(openSSLReason()))")
        }
        SSL_CTX_set_default_passwd_cb(context) { _, _, _, _ in 0 }
        return context
    }

    /// OpenSSL's reason for the first failure it queued (the most
    /// specific one, e.g. `no start line`); empties its error queue.
    private static func openSSLReason() -> String {
        var reason: String?
        var code = ERR_get_error()
        while code != 0 {
            if reason == nil, let text = ERR_reason_error_string(code) {
                reason = String(cString: text)
            }
            code = ERR_get_error()
        }
        return reason ?? "no details from OpenSSL"
    }
}
