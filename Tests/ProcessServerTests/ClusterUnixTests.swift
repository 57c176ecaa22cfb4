import Foundation
import Glibc
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("Cluster: --unix on a node, verified names on every node", .serialized, .ownThreads)
struct ClusterUnixTests {
    /// The JSON object of the next text frame.
    private static func next(_ raw: RawWebSocket) throws -> [String: Any] {
        let frame = try raw.receive()
        return try #require(ServerProcess.json(String(decoding: frame.payload, as: UTF8.self)))
    }

    private static var loginName: String {
        String(cString: getpwuid(getuid())!.pointee.pw_name)
    }

    @Test("a member on a cluster node's Unix socket joins under its login name, verified, and the other node, a node that takes the room up later and the Redis log all say so; a TCP member is not verified anywhere")
    func verifiedAcrossNodes() async throws {
        let directory = NSTemporaryDirectory() + "nsu-\(UUID().uuidString.prefix(8))"
        mkdir(directory, 0o755)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/neonsync.sock"
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a", ["--unix", path])
        let b = try clusterNode(redis, "b")

        let ada = try RawWebSocket(unixPath: path)
        try ada.send(text: #"{"type":"hello","room":"shared","name":"ada","role":"reader"}"#)
        var first = try Self.next(ada)
        while first["type"] as? String != "welcome" { first = try Self.next(ada) }
        let bob = try await TestPeer.connect(url: b.url)
        let seen = try await bob.hello(room: "shared", name: "bob", role: .reader)
        let local = try #require(seen.readers.first { $0.name == Self.loginName }, "\(seen.readers)")
        #expect(local.isVerified, "the member of node a's Unix socket is verified on node b")
        #expect(seen.readers.first { $0.name == "bob" }?.isVerified == false)
        let log = try redis.cli(["XRANGE", "neonsync:{shared}:log", "-", "+"])
        #expect(log.split(separator: "\n").contains("v"), "the log keeps the hello as verified (k v): \(log)")

        let c = try clusterNode(redis, "c")
        let later = try await TestPeer.connect(url: c.url)
        let taken = try await later.hello(room: "shared", name: "cy", role: .observer)
        #expect(taken.readers.first { $0.name == Self.loginName }?.isVerified == true, "\(taken.readers)")
        #expect(taken.readers.first { $0.name == "bob" }?.isVerified == false)
        for (node, name) in [(a, "a"), (b, "b"), (c, "c")] { expectDocumentedLog(node, name: name) }
    }
}
