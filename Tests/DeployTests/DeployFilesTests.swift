import Foundation
import Testing

/// "Every file in deploy/ is exercised by a test": the table says which
/// test runs each file; a new file fails here until it has one.
@Suite("deploy/ has no file that nothing runs")
struct DeployFilesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each file under deploy/ and the test file (Tests/DeployTests, or
    /// .ci for the setup script) that runs it, naming it.
    static let exercisedBy: [String: String] = [
        "setup.sh": ".ci/run",
        "systemd/neonsyncd.service": "SystemdUnitTests.swift",
        "systemd/neonsyncd@.service": "SystemdUnitTests.swift",
        "logrotate/neonsyncd": "SystemdUnitTests.swift",
        "nginx/neonsync.conf": "NginxEndToEndTests.swift",
        "nginx/render.sh": "NginxEndToEndTests.swift",
        "cluster/run-local.sh": "LocalClusterScriptTests.swift",
        "cluster/redis.sh": "LocalClusterScriptTests.swift",
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
                : Self.root.appendingPathComponent("Tests/DeployTests/\(test)")
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

    @Test("the README's test command is the one CI runs, and its tiers hold every test target exactly once")
    func testCommandAndTiers() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let documented = try #require(readme.split(separator: "\n").first { $0.contains("scripts/test-tiers.sh") && $0.contains("#") })
        let command = documented.split(separator: "#")[0].trimmingCharacters(in: .whitespaces)
        let ran = try #require(ci.split(separator: "\n").last { !$0.hasPrefix("#") && !$0.isEmpty })
        #expect(ran.trimmingCharacters(in: .whitespaces) == command)
        // Each tier's filter in the script, and each test target in the manifest.
        let script = try String(contentsOf: Self.root.appendingPathComponent("scripts/test-tiers.sh"), encoding: .utf8)
        // (A tier with an environment runs some targets again, differently.)
        let filters = script.matches(of: /\n    "[a-z-]+\|(\^[A-Za-z]+)\|[^|"]*\|\|/).map { String($0.output.1) }
        #expect(filters == ["^Neon", "^InProcess", "^Process", "^Terminal", "^Deploy"])
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = manifest.matches(of: /\.testTarget\(name: "([A-Za-z]+)"/).map { String($0.output.1) }
        #expect(targets.count >= 16)
        for target in targets {
            let tiers = filters.filter { target.hasPrefix($0.dropFirst()) }
            #expect(tiers.count == 1, "test target \(target) is in \(tiers.count) tiers of scripts/test-tiers.sh: \(tiers)")
        }
    }

    @Test("the tests' support libraries use no @testable import, so swift build -c release (the README's first command) builds them")
    func supportLibrariesBuildInRelease() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let folders = manifest.matches(of: /path: "(Tests\/[A-Za-z]+)"/).map { String($0.output.1) }
        #expect(folders.sorted() == ["Tests/ClientSupport", "Tests/ServerSupport", "Tests/Support"])
        for folder in folders {
            let directory = Self.root.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".swift") {
                let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                #expect(!source.contains("@testable import"), "\(folder)/\(file) uses @testable import: a release build cannot compile it")
            }
        }
    }
}
