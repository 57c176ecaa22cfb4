import CLibWebSockets
import Glibc
import NeonTransportCore

/// A port shared with other processes (`SO_REUSEPORT`).
///
/// lws's own listen share (`LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE`) sets
/// `SO_REUSEPORT` only for a context with several service threads, which
/// Debian's build (`LWS_MAX_SMP 1`) never has. So the server opens its
/// listening socket itself, with the option set before `bind`, adopts it
/// into the loop as a raw descriptor, and hands each connection it accepts
/// to the server vhost as lws's own listener would.
enum SharedPort {
    /// The name of the vhost, and of its one protocol, that hold the
    /// listening socket.
    static let acceptor = "neonsync-accept"

    /// A non-blocking listening TCP socket on `address`, `port`, with
    /// `SO_REUSEPORT`; returns it and the bound port.
    static func listen(_ address: ListenAddress, host: String, port: Int) throws(TransportError) -> (fd: Int32, port: Int) {
        var storage = sockaddr_storage()
        var length: socklen_t
        let family: Int32
        let text = address.lwsInterface ?? (address.isIPv4 ? "0.0.0.0" : "::")
        let parsed = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
            let base = raw.baseAddress!
            if address.isIPv4 {
                let v4 = base.assumingMemoryBound(to: sockaddr_in.self)
                v4.pointee.sin_family = sa_family_t(AF_INET)
                v4.pointee.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
                return inet_pton(AF_INET, text, &v4.pointee.sin_addr) == 1
            }
            let v6 = base.assumingMemoryBound(to: sockaddr_in6.self)
            v6.pointee.sin6_family = sa_family_t(AF_INET6)
            v6.pointee.sin6_port = in_port_t(UInt16(clamping: port)).bigEndian
            return inet_pton(AF_INET6, text, &v6.pointee.sin6_addr) == 1
        }
        guard parsed else { throw .cannotListen(host: host, port: port, errno: EADDRNOTAVAIL) }
        if address.isIPv4 {
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else {
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(host: host, port: port, errno: errno) }
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, size)
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, size)
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && Glibc.listen(fd, SOMAXCONN) == 0
                    && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw .cannotListen(host: host, port: port, errno: code)
        }
        let boundPort = withUnsafeBytes(of: storage) { raw in
            address.isIPv4 ? raw.load(as: sockaddr_in.self).sin_port : raw.load(as: sockaddr_in6.self).sin6_port
        }
        return (fd, Int(UInt16(bigEndian: boundPort)))
    }

    /// Makes the vhost that watches the listening socket `fd` and adopts it.
    static func adopt(_ fd: Int32, into context: OpaquePointer, memory: CMemory) throws(TransportError) {
        var info = lws_context_creation_info()
        info.vhost_name = UnsafePointer(memory.string(acceptor))
        info.port = CONTEXT_PORT_NO_LISTEN
        var accepting = lws_protocols()
        accepting.name = UnsafePointer(memory.string(acceptor))
        accepting.callback = sharedPortCallback
        info.protocols = memory.protocols(accepting)
        guard let vhost = lws_create_vhost(context, &info) else {
            close(fd)
            throw .contextCreationFailed("lws_create_vhost for the shared port returned NULL")
        }
        var descriptor = lws_sock_file_fd_type()
        descriptor.filefd = fd
        guard lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, descriptor, acceptor, nil) != nil else {
            throw .contextCreationFailed("lws_adopt_descriptor_vhost refused the shared listening socket")
        }
    }
}

/// The callback of the listening socket's protocol: whenever it is
/// readable, accept what waits (a bounded number, so that a burst of
/// connects cannot starve the open connections) and hand each connection to
/// the server vhost, which serves it like any other (TLS included).
func sharedPortCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard reason == LWS_CALLBACK_RAW_RX_FILE, let wsi, let context = lws_get_context(wsi),
          let server = lws_get_vhost_by_name(context, ServerEngine.vhostName) else { return 0 }
    let listener = lws_get_socket_fd(wsi)
    for _ in 0..<64 {
        // accept4 needs _GNU_SOURCE to import.
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { break }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // Closes fd itself when it cannot adopt it.
        _ = lws_adopt_socket_vhost(server, fd)
    }
    return 0
}
