import CLibWebSockets
import Glibc
import NeonTransportCore

extension ServerEngine {
    /// Creates the context and the listening vhost on the service thread.
    var eventLoopKind: EventLoop.Kind { configuration.eventLoop }

    func createContext(memory: CMemory, loop: EventLoop) throws(TransportError) -> (context: OpaquePointer, port: Int) {
        if let tls = configuration.tls {
            try TLSFiles.checkServer(tls)
        }
        var info = lws_context_creation_info()
        info.options = neon_lws_option_explicit_vhosts()
        if configuration.tls != nil {
            info.options |= neon_lws_option_do_ssl_global_init()
        }
        info.user = contextUser
        let made = loop.createContext(&info) { info in
            TLSContextGate.creatingContext({ lws_create_context(&info) })
        }
        guard let context = made else {
            throw .contextCreationFailed("lws_create_context returned NULL")
        }
        loopInUse.withLock { $0 = loop.kind }

        let interface = ListenAddress(host: configuration.host)
        var vhostInfo = lws_context_creation_info()
        vhostInfo.vhost_name = UnsafePointer(memory.string(Self.vhostName))
        vhostInfo.port = Int32(clamping: configuration.port)
        vhostInfo.iface = interface.lwsInterface.map { UnsafePointer(memory.string($0)) }
        vhostInfo.options = neon_lws_option_fail_upon_unable_to_bind()
        if interface.isIPv4 {
            vhostInfo.options |= neon_lws_option_disable_ipv6()
        }
        // With several service threads every socket comes through the
        // acceptor (shard 0): no vhost listens by itself.
        let handsOut = ring.count > 1
        var shared: (fd: Int32, port: Int)?
        if handsOut {
            vhostInfo.port = CONTEXT_PORT_NO_LISTEN_SERVER
        } else if configuration.sharesPort {
            shared = try SharedPort.listen(interface, host: configuration.host, port: configuration.port)
            vhostInfo.port = CONTEXT_PORT_NO_LISTEN_SERVER
        }
        if let tls = configuration.tls {
            // Every connection on the port speaks TLS; HTTP/1.1 only, so
            // WebSocket upgrades and /healthz take the same path as ws://.
            // lws reads the TLS option from the vhost's info too.
            vhostInfo.options |= neon_lws_option_do_ssl_global_init()
            vhostInfo.ssl_cert_filepath = UnsafePointer(memory.string(tls.certificatePath))
            vhostInfo.ssl_private_key_filepath = UnsafePointer(memory.string(tls.privateKeyPath))
            vhostInfo.ssl_options_set = neon_ssl_options_no_legacy_protocols()
            vhostInfo.alpn = UnsafePointer(memory.string("http/1.1"))
        }
        var neonsync = lws_protocols()
        neonsync.name = UnsafePointer(memory.string(configuration.subprotocol))
        neonsync.callback = serverCallback
        neonsync.per_session_data_size = MemoryLayout<UnsafeMutableRawPointer?>.size
        vhostInfo.protocols = memory.protocols(neonsync)
        guard let vhost = lws_create_vhost(context, &vhostInfo) else {
            if let shared { close(shared.fd) }
            lws_context_destroy(context)
            if handsOut {
                throw .contextCreationFailed("lws_create_vhost for service thread \(shard) returned NULL")
            }
            throw .cannotListen(
                host: configuration.host, port: configuration.port,
                errno: interface.diagnoseBind(port: configuration.port))
        }
        if let path = configuration.unixSocketPath {
            var unixInfo = lws_context_creation_info()
            unixInfo.vhost_name = UnsafePointer(memory.string(Self.unixVhostName))
            if handsOut {
                unixInfo.port = CONTEXT_PORT_NO_LISTEN_SERVER
            } else {
                unixInfo.port = 0
                unixInfo.iface = UnsafePointer(memory.string(path))
                unixInfo.options = neon_lws_option_fail_upon_unable_to_bind() | neon_lws_option_unix_sock()
            }
            unixInfo.protocols = vhostInfo.protocols
            guard lws_create_vhost(context, &unixInfo) != nil else {
                if let shared { close(shared.fd) }
                lws_context_destroy(context)
                throw .cannotListenOnUnixSocket(path: path)
            }
        }
        let opened = listeners?.current
        if let listening = shared.map({ [$0.fd] }) ?? opened?.all {
            do {
                try SharedPort.adopt(listening, into: context, memory: memory)
                listeners?.markAdopted()
            } catch {
                if listeners == nil { listening.forEach { _ = close($0) } }
                lws_context_destroy(context)
                throw error
            }
            return (context, shared?.port ?? opened?.port ?? 0)
        }
        if handsOut {
            return (context, 0)
        }
        return (context, Int(lws_get_vhost_listen_port(vhost)))
    }

    /// The name of the vhost that serves the port.
    static let vhostName = "neonsync"
    /// The name of the vhost that serves the Unix socket (never TLS).
    static let unixVhostName = "neonsync-unix"
}

/// The configured host turned into what lws's `iface` expects.
struct ListenAddress {
    /// The address to hand lws, or `nil` for every interface.
    let lwsInterface: String?
    /// `true` when the address is IPv4 (lws then opens an IPv4 socket).
    let isIPv4: Bool

    init(host: String) {
        switch host {
        case "", "0.0.0.0", "*":
            lwsInterface = nil
            isIPv4 = true
        case "::":
            lwsInterface = nil
            isIPv4 = false
        case "localhost":
            lwsInterface = "127.0.0.1"
            isIPv4 = true
        default:
            var probe = in_addr()
            lwsInterface = host
            isIPv4 = inet_pton(AF_INET, host, &probe) == 1
        }
    }

    /// Binds a throwaway socket the way lws would, to learn why lws could
    /// not (lws logs the errno but does not return it). `nil` if the probe
    /// itself succeeds or the host is not an address.
    func diagnoseBind(port: Int) -> Int32? {
        guard isIPv4 else { return nil }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, lwsInterface ?? "0.0.0.0", &address.sin_addr) == 1 else { return nil }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return status == 0 ? nil : errno
    }
}
