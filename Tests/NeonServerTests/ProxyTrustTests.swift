import Glibc
import NeonCore
import NeonTransport
import NeonTransportCore
import Testing
@testable import NeonServer

@Suite("--trust-proxy: the client's address from a trusted proxy's headers")
struct ProxyTrustTests {
    func trust(_ ranges: String...) -> ProxyTrust {
        ProxyTrust(ranges.map { AddressRange($0)! })
    }

    @Test("addresses and CIDR ranges parse, IPv4 and IPv6, and match what they cover only")
    func ranges() throws {
        let lan = try #require(AddressRange("10.0.0.0/8"))
        #expect(lan.contains(IPAddress("10.255.3.4")!))
        #expect(!lan.contains(IPAddress("11.0.0.1")!))
        #expect(lan.contains(IPAddress("::ffff:10.1.2.3")!), "an IPv4-mapped peer is its IPv4 address")
        #expect(!lan.contains(IPAddress("::1")!))
        let host = try #require(AddressRange("127.0.0.1"))
        #expect(host.contains(IPAddress("127.0.0.1")!) && !host.contains(IPAddress("127.0.0.2")!))
        let v6 = try #require(AddressRange("fd00::/8"))
        #expect(v6.contains(IPAddress("fd12:3456::1")!) && !v6.contains(IPAddress("fe80::1")!))
        #expect(AddressRange("10.1.2.3/20")!.contains(IPAddress("10.1.0.9")!), "bits past the prefix are ignored")
        #expect(AddressRange("0.0.0.0/0")!.contains(IPAddress("203.0.113.9")!))
        #expect(AddressRange("::/0")!.contains(IPAddress("2001:db8::1")!))
        for bad in ["", "localhost", "10.0.0.0/33", "::1/129", "10.0.0.0/", "10.0.0.0/+8", "10.0.0.1:80", "[::1]", "1.2.3", "fe80::1%eth0", "10.0.0.0/8/8"] {
            #expect(AddressRange(bad) == nil, "\(bad) is not a range")
        }
        #expect(IPAddress("0:0:0:0:0:0:0:1")?.description == "::1")
        #expect(IPAddress("::ffff:192.0.2.1")?.description == "192.0.2.1")
    }

    @Test("X-Forwarded-For is read from the right: trusted hops are stepped over, the first other address is the client")
    func forwardedForFromTheRight() {
        let proxies = trust("127.0.0.1", "10.0.0.0/8")
        func resolve(_ header: String, peer: String = "127.0.0.1") -> ProxyTrust.Resolution {
            proxies.resolve(peer: peer, forwardedFor: header, forwarded: nil)
        }
        #expect(resolve("203.0.113.7") == .init(address: "203.0.113.7", proxy: "127.0.0.1"))
        #expect(resolve("203.0.113.7, 10.0.0.5").address == "203.0.113.7", "a second trusted proxy is stepped over")
        #expect(resolve("6.6.6.6, 203.0.113.7").address == "203.0.113.7", "a client's own entry to the left cannot matter")
        #expect(resolve("garbage, 203.0.113.7").address == "203.0.113.7")
        #expect(resolve("203.0.113.7,10.0.0.5 ,\t10.0.0.6").address == "203.0.113.7")
        #expect(resolve("10.0.0.9, 10.0.0.5").address == "10.0.0.9", "all trusted: the leftmost")
        #expect(resolve("2001:DB8::17").address == "2001:db8::17")
        #expect(resolve("[2001:db8::17]:4711").address == "2001:db8::17")
        #expect(resolve("203.0.113.7:51234").address == "203.0.113.7")
        #expect(resolve("::ffff:203.0.113.7").address == "203.0.113.7")
        #expect(resolve("6.6.6.6, garbage, 10.0.0.5").address == "10.0.0.5", "unreadable: the last address read")
        #expect(resolve("nonsense") == .init(address: "127.0.0.1"), "nothing readable: the peer itself")
        #expect(resolve("203.0.113.7:port") == .init(address: "127.0.0.1"))
        #expect(resolve("[::1") == .init(address: "127.0.0.1"))
        #expect(resolve("203.0.113.7,") == .init(address: "127.0.0.1"), "an empty last entry is unreadable")
        #expect(resolve("203.0.113.7", peer: "::ffff:127.0.0.1") == .init(address: "203.0.113.7", proxy: "127.0.0.1"))
    }

    @Test("from a peer that is not a trusted proxy the headers are ignored, and said to be")
    func untrustedPeer() {
        let proxies = trust("127.0.0.1")
        #expect(proxies.resolve(peer: "127.0.0.2", forwardedFor: "203.0.113.7", forwarded: nil)
                == .init(address: "127.0.0.2", ignoredHeaders: true))
        #expect(proxies.resolve(peer: "unix", forwardedFor: nil, forwarded: "for=203.0.113.7")
                == .init(address: "unix", ignoredHeaders: true))
        #expect(ProxyTrust().resolve(peer: "127.0.0.1", forwardedFor: "203.0.113.7", forwarded: nil)
                == .init(address: "127.0.0.1", ignoredHeaders: true), "no --trust-proxy: nobody is trusted")
        #expect(proxies.resolve(peer: "127.0.0.2", forwardedFor: nil, forwarded: nil) == .init(address: "127.0.0.2"))
        #expect(proxies.resolve(peer: "127.0.0.2", forwardedFor: " ", forwarded: nil) == .init(address: "127.0.0.2"))
    }

    @Test("RFC 7239 Forwarded: for= of each element, quoted IPv6 with ports, unknown and obfuscated names unreadable")
    func forwardedHeader() {
        let proxies = trust("127.0.0.1", "192.0.2.43")
        func resolve(_ header: String) -> String {
            proxies.resolve(peer: "127.0.0.1", forwardedFor: nil, forwarded: header).address
        }
        #expect(resolve("for=192.0.2.60;proto=http;by=203.0.113.43") == "192.0.2.60")
        #expect(resolve(#"For="[2001:db8:cafe::17]:4711""#) == "2001:db8:cafe::17")
        #expect(resolve(#"for=192.0.2.60, for="192.0.2.43:80";proto=https"#) == "192.0.2.60")
        #expect(resolve(#"for=198.51.100.17;by="a,b", for=192.0.2.61"#) == "192.0.2.61", "a comma inside quotes splits nothing")
        #expect(resolve("proto=https;for=198.51.100.17") == "198.51.100.17")
        #expect(resolve("for=unknown") == "127.0.0.1")
        #expect(resolve("for=_hidden, for=198.51.100.17") == "198.51.100.17")
        #expect(resolve("for=198.51.100.17, for=_hidden") == "127.0.0.1")
        #expect(resolve("by=203.0.113.43") == "127.0.0.1")
        #expect(resolve(#"for="[2001:db8::1"#) == "127.0.0.1")
    }

    @Test("X-Forwarded-For wins over Forwarded when a request has both: the header nginx and most proxies write")
    func bothHeaders() {
        let resolution = trust("127.0.0.1").resolve(peer: "127.0.0.1", forwardedFor: "203.0.113.7", forwarded: "for=6.6.6.6")
        #expect(resolution.address == "203.0.113.7")
    }

    @Test("the gateway counts connections per client address behind a trusted proxy and logs peer and proxy")
    func gatewayUsesTheClientAddress() {
        var policy = AccessPolicy(maxConnectionsPerAddress: 1)
        policy.proxies = trust("127.0.0.1")
        var gateway = Gateway(hub: Hub(), configuration: .init(policy: policy))
        let clock = GatewayClock(monotonic: .zero, hub: .zero, wallNanoseconds: 0)
        func connect(_ n: Int, peer: String, _ forwardedFor: String?) -> [GatewayCommand] {
            gateway.apply(.connected(ConnectionID(rawValue: UInt64(n)), peer: peer,
                                     forwarding: forwardedFor.map { ForwardingHeaders(forwardedFor: $0) }), at: clock)
        }
        func refused(_ commands: [GatewayCommand]) -> Bool {
            commands.contains { if case .close = $0 { true } else { false } }
        }
        let first = connect(1, peer: "127.0.0.1", "203.0.113.7")
        #expect(!refused(first))
        let logged = first.compactMap { if case let .log(record) = $0 { record } else { nil } }.first
        #expect(logged.map { LogLine.render($0, at: timespec()) }?.contains(#""peer":"203.0.113.7","proxy":"127.0.0.1""#) == true)
        #expect(!refused(connect(2, peer: "127.0.0.1", "203.0.113.8")), "another client behind the same proxy")
        #expect(refused(connect(3, peer: "127.0.0.1", "203.0.113.7")), "the same client again is over its cap")
        #expect(!refused(connect(4, peer: "127.0.0.9", "203.0.113.7")), "an untrusted peer is counted as itself")
        #expect(refused(connect(5, peer: "127.0.0.9", "198.51.100.1")), "whatever its header says")
    }
}
