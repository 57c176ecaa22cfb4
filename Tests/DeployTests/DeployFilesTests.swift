import Foundation
import Testing

/// "Every file in deploy/ is exercised by a test": the table says which
/// test runs each file; a new file fails here until it has one.
@Suite("deploy/ has no file that nothing runs")
struct DeployFilesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each file under deploy/ and the test file (Tests/NeonServerTests, or
    /// .ci for the setup script) that runs it, naming it.
    static let exercisedBy: [String: String] = [
        "setup.sh": ".ci/run",
        "systemd/neonsyncd.service": "SystemdUnitTests.swift",
        "systemd/neonsyncd@.service": "SystemdUnitTests.swift",
        "logrotate/neonsyncd": "SystemdUnitTests.swift",
        "nginx/neonsync.conf": "NginxEndToEndTests.swift",
        "nginx/render.sh": "NginxEndToEndTests.swift",
        "cluster/run-local.sh": "LocalClusterScriptTests.swift",
        "prometheus/prometheus.yml": "MetricsDeployTests.swift",
        "grafana/neonsync-dashboard.json": "MetricsDeployTests.swift",
        "debian/build.sh": "DebianPackages.swift",
        "debian/copyright": "DebianInstallTests.swift",
        "debian/changelog.in": "DebianInstallTests.swift",
        "debian/neonsync/control.in": "DebianInstallTests.swift",
        "debian/neonsync-highlight/control.in": "DebianInstallTests.swift",
        "debian/neonsync-bench/control.in": "DebianInstallTests.swift",
        "debian/neonsyncd/control.in": "DebianInstallTests.swift",
        "debian/neonsyncd/postinst": "DebianMaintainerScriptTests.swift",
        "debian/neonsyncd/prerm": "DebianMaintainerScriptTests.swift",
        "debian/neonsyncd/postrm": "DebianMaintainerScriptTests.swift",
        "debian/neonsyncd/conffiles": "DebianMaintainerScriptTests.swift",
    ]

    @Test("every file under deploy/ has a test that runs it, and that test names it")
    func everyFileIsRun() throws {
        let deploy = Self.root.appendingPathComponent("deploy")
        let enumerator = try #require(FileManager.default.enumerator(atPath: deploy.path))
        var files: Set<String> = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: deploy.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                files.insert(path)
            }
        }
        #expect(files == Set(Self.exercisedBy.keys), "deploy/ without a test: \(files.subtracting(Self.exercisedBy.keys).sorted())")
        for (file, test) in Self.exercisedBy {
            let location = test.hasPrefix(".") ? Self.root.appendingPathComponent(test)
                : Self.root.appendingPathComponent("Tests/NeonServerTests/\(test)")
            let source = try String(contentsOf: location, encoding: .utf8)
            let name = String(file.split(separator: "/").last!)
            #expect(source.contains(file) || source.contains(name), "\(test) does not name \(file)")
        }
    }

    @Test("the scripts under deploy/ are executable")
    func scriptsAreExecutable() throws {
        for script in Self.exercisedBy.keys where script.hasSuffix(".sh") {
            #expect(FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent("deploy/\(script)").path), "\(script)")
        }
    }
}
