import Foundation
import NeonTestSupport
import Testing

/// `neonsync bench` runs neonsync-bench, found beside neonsync (or in
/// ../libexec/neonsync); the client holds no load generator of its own.
@Suite("neonsync bench runs neonsync-bench", .ownThreads)
struct BenchLauncherTests {
    static let built = ServerProcess.binary.deletingLastPathComponent()

    @Test("neonsync alone in a directory, without neonsync-bench beside it: bench exits 1 naming both places it looked and how to get it; bench --help still lists every scenario and flag")
    func withoutTheBench() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory() + "neonsync-alone-\(UUID().uuidString)/bin")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let client = directory.appendingPathComponent("neonsync")
        try copyExecutable(Self.built.appendingPathComponent("neonsync"), to: client)
        let run = try runProgram(client, ["bench", "follow", "--followers", "2"])
        #expect(run.status == 1, "\(run.err)")
        let parent = directory.deletingLastPathComponent().path
        #expect(run.err == "neonsync bench: neonsync-bench, which runs the benchmarks, is not installed: looked for "
            + "\(directory.path)/neonsync-bench and \(parent)/libexec/neonsync/neonsync-bench; build it beside neonsync "
            + "(swift build --product neonsync-bench), or install the neonsync-bench package\n")
        let help = try runProgram(client, ["bench", "--help"])
        #expect(help.status == 0)
        for word in ["follow", "coread", "draft", "relay", "connect", "rooms", "churn", "redis", "core", "--redis-password-file", "EXAMPLE"] {
            #expect(help.out.contains(word), "\(word) in neonsync bench --help")
        }
    }

    @Test("neonsync-bench found in ../libexec/neonsync beside neonsync's directory runs as neonsync bench; run on its own it names itself neonsync-bench")
    func installedPlaceAndOwnName() throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory() + "neonsync-root-\(UUID().uuidString)")
        let bin = root.appendingPathComponent("bin")
        let libexec = root.appendingPathComponent("libexec/neonsync")
        for directory in [bin, libexec] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: root) }
        try copyExecutable(Self.built.appendingPathComponent("neonsync"), to: bin.appendingPathComponent("neonsync"))
        try copyExecutable(Self.built.appendingPathComponent("neonsync-bench"), to: libexec.appendingPathComponent("neonsync-bench"))
        let launched = try runProgram(bin.appendingPathComponent("neonsync"), ["bench", "relay", "--senders", "0"])
        #expect(launched.status == 2)
        #expect(launched.err == "neonsync bench: --senders needs a whole number from 1 to 1000000, e.g. --senders 10\n", "\(launched.err)")
        let alone = try runProgram(libexec.appendingPathComponent("neonsync-bench"), [])
        #expect(alone.status == 2)
        #expect(alone.err.hasPrefix("neonsync-bench: needs a scenario: follow, coread, draft, relay, connect, rooms, churn, redis, core; see neonsync-bench --help"),
                "\(alone.err)")
    }
}
