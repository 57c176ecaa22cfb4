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
    static func listen(_ address: ListenAddress, host: String, port: Int,
                       reusePort: Bool = true) throws(TransportError) -> (fd: Int32, port: Int) {
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
        if reusePort {
            setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, size)
        }
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

    /// A non-blocking listening Unix domain socket at `path`; a file
    /// already there is replaced (as lws's own listener does).
    static func listenUnix(_ path: String) throws(TransportError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .cannotListenOnUnixSocket(path: path)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListenOnUnixSocket(path: path) }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 && Glibc.listen(fd, SOMAXCONN) == 0
            }
        }
        guard bound else {
            close(fd)
            throw .cannotListenOnUnixSocket(path: path)
        }
        return fd
    }

    /// Makes the vhost that watches the listening sockets `fds` and adopts
    /// them; the caller closes them if this throws.
    static func adopt(_ fds: [Int32], into context: OpaquePointer, memory: CMemory) throws(TransportError) {
        var info = lws_context_creation_info()
        info.vhost_name = UnsafePointer(memory.string(acceptor))
        info.port = CONTEXT_PORT_NO_LISTEN
        var accepting = lws_protocols()
        accepting.name = UnsafePointer(memory.string(acceptor))
        accepting.callback = sharedPortCallback
        info.protocols = memory.protocols(accepting)
        guard let vhost = lws_create_vhost(context, &info) else {
            throw .contextCreationFailed("lws_create_vhost for the shared port returned NULL")
        }
        for fd in fds {
            var descriptor = lws_sock_file_fd_type()
            descriptor.filefd = fd
            guard lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, descriptor, acceptor, nil) != nil else {
                throw .contextCreationFailed("lws_adopt_descriptor_vhost refused the shared listening socket")
            }
        }
    }
}

/// The callback of the listening sockets' protocol: whenever one is
/// readable, its engine accepts what waits and serves each connection
/// itself or hands it to another service thread (``ServerEngine/accept(from:)``).
func sharedPortCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard reason == LWS_CALLBACK_RAW_RX_FILE, let wsi, let engine = ServerEngine.owner(of: wsi) else { return 0 }
    engine.accept(from: lws_get_socket_fd(wsi))
    return 0
}
