import Foundation
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// neonsyncd's maintainer scripts, run by dpkg itself against a temporary
/// root (`dpkg --root --force-script-chrootless`, so the scripts see
/// $DPKG_ROOT) with deb-systemd-helper, deb-systemd-invoke and systemctl
/// replaced by stubs that record their calls: install, upgrade over an
/// existing secret, remove, purge.
@Suite("neonsyncd's maintainer scripts against a temporary root", .serialized, .ownThreads)
struct DebianMaintainerScriptTests {
    /// A dpkg database and a root of its own, and the stubs' record.
    final class Root {
        let path = URL(fileURLWithPath: NSTemporaryDirectory() + "neonsync-dpkg-\(UUID().uuidString)")
        var root: URL { path.appendingPathComponent("root") }
        var calls: URL { path.appendingPathComponent("calls") }
        var stubs: URL { path.appendingPathComponent("stubs") }

        init() throws {
            let fm = FileManager.default
            for directory in ["root/var/lib/dpkg/info", "root/var/lib/dpkg/updates", "root/var/lib/dpkg/triggers", "stubs"] {
                try fm.createDirectory(at: path.appendingPathComponent(directory), withIntermediateDirectories: true)
            }
            for file in ["root/var/lib/dpkg/status", "root/var/lib/dpkg/available", "calls"] {
                _ = fm.createFile(atPath: path.appendingPathComponent(file).path, contents: Data())
            }
            for stub in ["deb-systemd-helper", "deb-systemd-invoke", "systemctl"] {
                let file = stubs.appendingPathComponent(stub)
                try writeExecutable("#!/bin/sh\necho \"\(stub) $*\" >> \(Tmux.quote(calls.path))\n", to: file.path)
            }
        }

        deinit { try? FileManager.default.removeItem(at: path) }

        /// `dpkg ARGUMENTS` on this root; fails the test with dpkg's words when it fails.
        @discardableResult
        func dpkg(_ arguments: [String]) throws -> String {
            let line = (["env", "PATH=\(stubs.path):/usr/sbin:/usr/bin:/sbin:/bin", "dpkg", "--root=\(root.path)",
                         "--force-script-chrootless", "--force-depends", "--force-not-root", "--log=/dev/null"] + arguments)
                .map(Tmux.quote).joined(separator: " ")
            let run = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", line + " 2>&1"])
            #expect(run.status == 0, "dpkg \(arguments.joined(separator: " ")):\n\(run.out)")
            return run.out
        }

        func recorded() throws -> [String] {
            try String(contentsOf: calls, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        func exists(_ path: String) -> Bool {
            var info = stat()
            return lstat(root.path + path, &info) == 0
        }

        func mode(_ path: String) -> mode_t {
            var info = stat()
            return stat(root.path + path, &info) == 0 ? info.st_mode & 0o7777 : 0
        }

        func read(_ path: String) throws -> String {
            try String(contentsOfFile: root.path + path, encoding: .utf8)
        }

        func write(_ text: String, to path: String) throws {
            try FileManager.default.createDirectory(atPath: (root.path + path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try text.write(toFile: root.path + path, atomically: false, encoding: .utf8)
        }

        /// Every path under the root but dpkg's own database.
        func files() throws -> Set<String> {
            let list = try runProgram(URL(fileURLWithPath: "/usr/bin/find"), [root.path, "-mindepth", "1"]).out
            return Set(list.split(separator: "\n").map { String($0.dropFirst(root.path.count)) }
                .filter { !$0.hasPrefix("/var/lib/dpkg") && $0 != "/var/lib" && $0 != "/var" })
        }
    }

    /// The package `deb` again with another version (an upgrade to install over it).
    static func repacked(_ deb: URL, version: String, into directory: URL) throws -> URL {
        let tree = directory.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-R", deb.path, tree.path]).status == 0)
        let control = tree.appendingPathComponent("DEBIAN/control")
        let text = try String(contentsOf: control, encoding: .utf8)
            .replacingOccurrences(of: "Version: \(DebianPackages.version)\n", with: "Version: \(version)\n")
        try text.write(to: control, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("upgrade.deb")
        let built = try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["--root-owner-group", "--build", tree.path, out.path])
        #expect(built.status == 0, "\(built.err)")
        return out
    }

    @Test("install makes /etc/neonsync/secret (mode 600 in a 700 directory, 32 random bytes) and enables the service; an upgrade keeps an existing secret and an edited conffile; remove keeps them; purge deletes what the package and its service made and nothing else")
    func lifecycle() async throws {
        let server = try await DebianPackages.packages().server
        let dpkg = try Root()
        // The package's maintainer scripts and conffiles are deploy/debian/neonsyncd's, byte for byte.
        let control = dpkg.path.appendingPathComponent("control")
        #expect(try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-e", server.path, control.path]).status == 0)
        for file in ["postinst", "prerm", "postrm", "conffiles"] {
            let shipped = DebianPackages.root.appendingPathComponent("deploy/debian/neonsyncd/\(file)")
            #expect(try Data(contentsOf: control.appendingPathComponent(file)) == Data(contentsOf: shipped), "\(file)")
        }
        let before = try dpkg.files()

        try dpkg.dpkg(["-i", server.path])
        #expect(dpkg.exists("/usr/bin/neonsyncd") && dpkg.exists("/lib/systemd/system/neonsyncd.service"))
        #expect(dpkg.mode("/etc/neonsync") == 0o700 && dpkg.mode("/etc/neonsync/secret") == 0o600)
        let secret = try dpkg.read("/etc/neonsync/secret")
        #expect(Data(base64Encoded: secret.trimmingCharacters(in: .newlines))?.count == 32, "32 random bytes in base64: \(secret)")
        let installCalls = try dpkg.recorded()
        #expect(installCalls.contains("deb-systemd-helper enable neonsyncd.service"), "\(installCalls)")
        let conffiles = try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-query"),
                                       ["--admindir=\(dpkg.root.path)/var/lib/dpkg", "-W", "-f=${Conffiles}", "neonsyncd"]).out
        #expect(conffiles.contains("/etc/logrotate.d/neonsyncd"), "conffiles: \(conffiles)")

        // The operator's own secret and an edited logrotate file survive an upgrade.
        try dpkg.write("operator-chosen-secret-0123456789\n", to: "/etc/neonsync/secret")
        let edited = try dpkg.read("/etc/logrotate.d/neonsyncd").replacingOccurrences(of: "rotate 14", with: "rotate 30")
        try dpkg.write(edited, to: "/etc/logrotate.d/neonsyncd")
        let upgrade = try Self.repacked(server, version: DebianPackages.version + "1", into: dpkg.path.appendingPathComponent("upgrade"))
        try dpkg.dpkg(["-i", upgrade.path])
        #expect(try dpkg.read("/etc/neonsync/secret") == "operator-chosen-secret-0123456789\n")
        #expect(dpkg.mode("/etc/neonsync/secret") == 0o600)
        #expect(try dpkg.read("/etc/logrotate.d/neonsyncd").contains("rotate 30"))

        // What the service makes while it runs (DynamicUser= keeps it under private/), and the operator's own file.
        try dpkg.write("rooms\n", to: "/var/lib/private/neonsync/neonsync.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dpkg.root.path + "/var/lib/neonsync", withDestinationPath: "private/neonsync")
        try dpkg.write("{}\n", to: "/var/log/private/neonsync/neonsyncd.jsonl")
        try FileManager.default.createSymbolicLink(atPath: dpkg.root.path + "/var/log/neonsync", withDestinationPath: "private/neonsync")
        try dpkg.write("redis password\n", to: "/etc/neonsync/redis-password")
        try dpkg.write("another package's\n", to: "/var/lib/other/state")

        try dpkg.dpkg(["-r", "neonsyncd"])
        #expect(!dpkg.exists("/usr/bin/neonsyncd") && !dpkg.exists("/lib/systemd/system/neonsyncd.service"))
        #expect(dpkg.exists("/etc/neonsync/secret") && dpkg.exists("/etc/logrotate.d/neonsyncd") && dpkg.exists("/var/lib/neonsync"))
        #expect(try dpkg.recorded().contains("deb-systemd-helper mask neonsyncd.service"))

        try dpkg.dpkg(["--purge", "neonsyncd"])
        #expect(try dpkg.recorded().contains("deb-systemd-helper purge neonsyncd.service"))
        // Left: the operator's files, and the directories that hold them or systemd's private/ ones.
        let left = try dpkg.files().subtracting(before)
        #expect(left == ["/etc", "/etc/neonsync", "/etc/neonsync/redis-password", "/var/lib/other", "/var/lib/other/state",
                         "/var/lib/private", "/var/log", "/var/log/private"], "after purge: \(left.sorted())")
    }
}
