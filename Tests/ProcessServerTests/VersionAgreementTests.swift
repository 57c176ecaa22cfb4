import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// One version, from the build: what `--version` prints is what the server
/// logs when it starts and what `/metrics` names (a package's version when
/// deploy/debian/build.sh stamped it; DebianInstallTests checks that).
@Suite("one version", .serialized, .ownThreads)
struct VersionAgreementTests {
    @Test("neonsyncd --version, neonsync --version, the start log line's version and /metrics' neonsync_build_info all name the build's version")
    func agree() async throws {
        let daemon = try runDaemon(["--version"])
        #expect(daemon.status == 0, "\(daemon.err)")
        let client = try runClient(["--version"])
        #expect(client.status == 0, "\(client.err)")
        let first = try #require(daemon.out.split(separator: "\n").first)
        #expect(first == "neonsyncd \(BuildStamp.version)")
        #expect(client.out.split(separator: "\n").first.map(String.init) == "neonsync \(BuildStamp.version)")

        let server = try ServerProcess()
        let reported = try await server.reportedVersions()
        #expect(reported.log == BuildStamp.version)
        #expect(reported.metrics.count == 1 && reported.metrics.first?.version == BuildStamp.version
            && reported.metrics.first?.value == "1", "\(reported.metrics)")
        #expect(server.stop() == 0)
    }
}
