import Foundation
import NeonTestSupport
import Testing

/// Built packages stay out of the repository: none is tracked, and where
/// deploy/debian/build.sh writes them by default (dist/VERSION/) git
/// ignores, so a package build leaves the tree clean (docs/PACKAGING.md).
@Suite("build outputs out of git")
struct BuildOutputsTests {
    static func git(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runProgram(URL(fileURLWithPath: "/usr/bin/git"), ["-C", DeployFilesTests.root.path] + arguments)
    }

    @Test("git ls-files tracks no built package: no .deb, nothing under dist/")
    func noPackageTracked() throws {
        let files = try Self.git(["ls-files"])
        #expect(files.status == 0, "\(files.err)")
        let built = files.out.split(separator: "\n").filter { $0.hasSuffix(".deb") || $0.hasPrefix("dist/") }
        #expect(built.isEmpty, "tracked build outputs: \(built)")
    }

    @Test("what build.sh writes by default, dist/VERSION/ with its packages and lintian.txt, is ignored by git")
    func defaultOutputIgnored() throws {
        let script = try String(contentsOf: DeployFilesTests.root.appendingPathComponent("deploy/debian/build.sh"), encoding: .utf8)
        #expect(script.contains("DIST=${DIST:-$ROOT/dist/$VERSION}\n"))
        for path in ["dist/0.3.0/neonsync_0.3.0_amd64.deb", "dist/0.3.0/neonsyncd_0.3.0_amd64.deb", "dist/0.3.0/lintian.txt"] {
            let ignored = try Self.git(["check-ignore", "--no-index", "-q", path])
            #expect(ignored.status == 0, "\(path) is not ignored by git")
        }
    }
}
