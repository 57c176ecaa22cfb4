import Foundation
import NeonTestSupport
import Testing

/// The packages deploy/debian/build.sh makes, unpacked into a temporary root
/// and run with the Swift toolchain's directory hidden, as on a machine that
/// never had Swift (docs/PACKAGING.md).
@Suite("the Debian packages, installed as a user's machine sees them", .serialized, .ownThreads)
struct DebianInstallTests {
    static func commit() throws -> String {
        let git = try runProgram(URL(fileURLWithPath: "/usr/bin/git"), ["-C", DebianPackages.root.path, "rev-parse", "--short=12", "HEAD"])
        return git.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func field(_ name: String, of deb: URL) throws -> String {
        try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-f", deb.path, name]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the three packages build with Depends from dpkg-shlibdeps, lintian finds no errors, and neither binary needs the toolchain: no library from it, and --version prints the version, the commit and the C libraries' versions with it hidden")
    func standalone() async throws {
        let packages = try await DebianPackages.packages()
        #expect(!packages.lintian.split(separator: "\n").contains { $0.hasPrefix("E: ") }, "lintian:\n\(packages.lintian)")
        for deb in [packages.client, packages.server] {
            let depends = try Self.field("Depends", of: deb)
            for library in ["libc6", "libwebsockets17", "libssl3", "libyaml-0-2"] {
                #expect(depends.contains(library), "\(deb.lastPathComponent) Depends: \(depends)")
            }
            #expect(!depends.contains("swift"), "\(deb.lastPathComponent) Depends: \(depends)")
            if deb.lastPathComponent.hasPrefix("neonsync_") {
                // The client links the picture libraries, and neither the
                // code highlighter nor Qt: those are the plug-in's.
                for library in ["libpng16-16", "libturbojpeg0", "libsixel1"] {
                    #expect(depends.contains(library), "\(deb.lastPathComponent) Depends: \(depends)")
                }
                #expect(!depends.lowercased().contains("qt") && !depends.lowercased().contains("kf5"),
                        "\(deb.lastPathComponent) Depends: \(depends)")
                // Highlighting by default through Debian's highlight (some
                // 70 MiB installed); the KSyntaxHighlighting plug-in, with
                // Qt, only on request.
                #expect(try Self.field("Recommends", of: deb) == "highlight")
                #expect(try Self.field("Suggests", of: deb).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    == ["neonsync-highlight", "neonsync-bench"])
            }
            if deb.lastPathComponent.hasPrefix("neonsyncd_") {
                // Service threads run on libev over epoll through lws's
                // libev plug-in; without the plug-in they fall back to poll().
                #expect(depends.contains("libev4"), "\(deb.lastPathComponent) Depends: \(depends)")
                #expect(try Self.field("Recommends", of: deb).contains("libwebsockets-evlib-ev"))
            }
        }
        // The plug-in's package: the highlighter and Qt, for this very client.
        let highlightDepends = try Self.field("Depends", of: packages.highlight)
        for library in ["neonsync (= \(DebianPackages.version))", "libkf5syntaxhighlighting5", "libqt5core5a", "libc6"] {
            #expect(highlightDepends.contains(library), "neonsync-highlight Depends: \(highlightDepends)")
        }
        #expect(!highlightDepends.contains("swift"), "neonsync-highlight Depends: \(highlightDepends)")
        #expect(try Self.field("Enhances", of: packages.highlight) == "neonsync")
        let contents = try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-c", packages.highlight.path]).out
        #expect(contents.contains("./usr/lib/neonsync/libNeonSyntax.so\n"), "\(contents)")

        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        let plugin = root.appendingPathComponent("usr/lib/neonsync/libNeonSyntax.so").path
        let pluginLibraries = try runProgram(URL(fileURLWithPath: "/usr/bin/ldd"), [plugin]).out
        #expect(pluginLibraries.contains("libKF5SyntaxHighlighting.so.5") && pluginLibraries.contains("libQt5Core.so.5"), "\(pluginLibraries)")
        #expect(!pluginLibraries.contains(DebianPackages.toolchain) && !pluginLibraries.contains("libswift")
            && !pluginLibraries.contains("not found"), "the plug-in needs more than Debian's libraries:\n\(pluginLibraries)")
        let dynamic = try runProgram(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", plugin]).out
        #expect(!dynamic.contains("RPATH") && !dynamic.contains("RUNPATH"), "\(dynamic)")
        for binary in ["neonsync", "neonsyncd"] {
            let path = root.appendingPathComponent("usr/bin/\(binary)").path
            let libraries = try runProgram(URL(fileURLWithPath: "/usr/bin/ldd"), [path]).out
            #expect(libraries.contains("libwebsockets.so.17") && libraries.contains("libcmark-gfm.so"), "\(binary): \(libraries)")
            #expect(!libraries.contains(DebianPackages.toolchain) && !libraries.contains("libswift")
                && !libraries.contains("libFoundation"), "\(binary) links the toolchain's libraries:\n\(libraries)")
            #expect(!libraries.contains("libQt5") && !libraries.contains("libKF5"), "\(binary) links Qt:\n\(libraries)")
            let hidden = try runProgram(URL(fileURLWithPath: "/usr/bin/unshare"),
                                        Array(DebianPackages.hidingToolchain(["/bin/ls", "-A", DebianPackages.toolchain]).dropFirst()))
            #expect(hidden.status == 0 && hidden.out.isEmpty, "the toolchain is hidden: \(hidden.out)\(hidden.err)")
            let version = try runProgram(URL(fileURLWithPath: "/usr/bin/unshare"),
                                         Array(DebianPackages.hidingToolchain([path, "--version"]).dropFirst()))
            #expect(version.status == 0, "\(binary) --version: \(version.err)")
            let lines = version.out.split(separator: "\n").map(String.init)
            let commit = try Self.commit()
            #expect(lines.first == "\(binary) \(DebianPackages.version)", "\(version.out)")
            #expect(lines.contains { $0.hasPrefix("commit: \(commit)") }, "\(version.out)")
            #expect(lines.contains { $0.wholeMatch(of: /libwebsockets: 4\.[0-9.]+.*/) != nil }, "\(version.out)")
            #expect(lines.contains { $0.wholeMatch(of: /cmark-gfm: 0\.[0-9]+\.[0-9]+\.gfm\.[0-9]+/) != nil }, "\(version.out)")
            if binary == "neonsync" {
                #expect(lines.contains { $0.wholeMatch(of: /highlighting: KSyntaxHighlighting 5\.[0-9]+\.[0-9]+/) != nil }, "\(version.out)")
            }
        }
    }

    @Test("each package's control fields (neonsync, neonsync-highlight, neonsync-bench, neonsyncd) come from deploy/debian/PACKAGE/control.in, its copyright is deploy/debian/copyright and its changelog.gz is deploy/debian/changelog.in for this version")
    func controlFiles() async throws {
        let packages = try await DebianPackages.packages()
        let debian = DebianPackages.root.appendingPathComponent("deploy/debian")
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, deb) in [("neonsync", packages.client), ("neonsync-highlight", packages.highlight), ("neonsync-bench", packages.bench),
                            ("neonsyncd", packages.server)] {
            let template = try String(contentsOf: debian.appendingPathComponent("\(name)/control.in"), encoding: .utf8)
            let control = try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-f", deb.path]).out
            for line in template.split(separator: "\n") where !line.contains("@") {
                #expect(control.contains(line + "\n"), "\(name): \(line)")
            }
            #expect(control.contains("Package: \(name)\nVersion: \(DebianPackages.version)\n"), "\(control)")
            let doc = root.appendingPathComponent("usr/share/doc/\(name)")
            #expect(try Data(contentsOf: doc.appendingPathComponent("copyright")) == Data(contentsOf: debian.appendingPathComponent("copyright")))
            let changelog = try runProgram(URL(fileURLWithPath: "/bin/zcat"), [doc.appendingPathComponent("changelog.gz").path]).out
            let first = try String(contentsOf: debian.appendingPathComponent("changelog.in"), encoding: .utf8)
                .split(separator: "\n")[0].replacingOccurrences(of: "@PACKAGE@", with: name)
                .replacingOccurrences(of: "@VERSION@", with: DebianPackages.version)
            #expect(changelog.hasPrefix(first + "\n"), "\(changelog)")
        }
    }

    @Test("neonsyncd recommends logrotate, for the /etc/logrotate.d/neonsyncd it ships; neonsync carries samples/ as its examples, uncompressed, and its man page names them")
    func examplesAndRecommends() async throws {
        let packages = try await DebianPackages.packages()
        #expect(try Self.field("Recommends", of: packages.server).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .contains("logrotate"))
        let root = try await DebianPackages.unpacked { [$0.client] }
        defer { try? FileManager.default.removeItem(at: root) }
        let samples = DebianPackages.root.appendingPathComponent("samples")
        let examples = root.appendingPathComponent("usr/share/doc/neonsync/examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted()
        #expect(names.contains("deck.md") && names.contains("guide.md") && names.contains("room.png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted() == names)
        for name in names {
            #expect(try Data(contentsOf: examples.appendingPathComponent(name)) == Data(contentsOf: samples.appendingPathComponent(name)), "\(name)")
        }
        let page = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "MANWIDTH=200 man -l "
            + Tmux.quote(root.appendingPathComponent("usr/share/man/man1/neonsync.1.gz").path) + " 2>/dev/null | col -b"]).out
        #expect(page.contains("/usr/share/doc/neonsync/examples/"), "the man page names the examples")
        #expect(page.contains("config.yaml"), "the man page names the config file")
    }

    @Test("a server from the neonsyncd package and two clients from the neonsync package co-read a document in tmux with the toolchain hidden: each sees the document and the other; the server's start log line and /metrics name the package's version")
    func coread() async throws {
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("usr/bin")
        let server = try ServerProcess([], launcher: DebianPackages.hidingToolchain([bin.appendingPathComponent("neonsyncd").path]))
        defer { _ = server.stop() }
        let reported = try await server.reportedVersions()
        #expect(reported.log == DebianPackages.version)
        #expect(reported.metrics.map(\.version) == [DebianPackages.version], "\(reported.metrics)")
        let document = root.appendingPathComponent("packaged.md")
        try "# Installed from a package\n\nEvery reader here runs the packaged neonsync.\n\n## Second part\n\nMore text.\n"
            .write(to: document, atomically: true, encoding: .utf8)
        let client = bin.appendingPathComponent("neonsync").path
        let tmux = try Tmux()
        try tmux.start("ada", columns: 80, rows: 24, command: DebianPackages.hidingToolchainLine(
            [client, "read", document.path, "--room", "packaged", "--name", "ada", "--server", server.url]))
        try tmux.waitFor("ada", "Every reader here runs the packaged neonsync.", timeout: 30)
        try tmux.start("bob", columns: 100, rows: 30, command: DebianPackages.hidingToolchainLine(
            [client, "join", "packaged", "--name", "bob", "--server", server.url]))
        try tmux.waitFor("bob", "Every reader here runs the packaged neonsync.", timeout: 30)
        _ = try tmux.waitFor("bob", "ada", timeout: 30)
        _ = try tmux.waitFor("ada", "bob", timeout: 30)
        #expect(server.waitForLog(timeout: 10) { $0["event"] as? String == "join" && $0["name"] as? String == "bob" } != nil)
        try tmux.sendKeys("bob", "q")
        try tmux.sendKeys("ada", "q")
        let deadline = Date().addingTimeInterval(15)
        var status: Int?
        while status == nil, Date() < deadline {
            status = try tmux.exitStatus("ada")
            if status == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(status == 0, "ada's client exits 0 on q")
    }

    @Test("the installed neonsyncd.service and neonsyncd@.service pass systemd-analyze verify with their /usr/bin paths (the package's /usr/bin laid over the machine's), and nothing in the package points at /usr/local")
    func units() async throws {
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = root.appendingPathComponent("checked")
        try FileManager.default.createDirectory(at: checked, withIntermediateDirectories: true)
        for (unit, name) in SystemdUnitTests.units {
            let installed = root.appendingPathComponent("lib/systemd/system/\(unit)")
            let text = try String(contentsOf: installed, encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/bin/neonsyncd ") && !text.contains("/usr/local"), "\(unit)")
            try FileManager.default.copyItem(at: installed, to: checked.appendingPathComponent(name))
            // In a mount namespace of its own, /usr/bin is the package's laid over the machine's.
            let line = "mount -t overlay overlay -o lowerdir=\(Tmux.quote(root.path))/usr/bin:/usr/bin /usr/bin && "
                + "systemd-analyze verify --man=no \(Tmux.quote(checked.appendingPathComponent(name).path)) 2>&1"
            let verified = try runProgram(URL(fileURLWithPath: "/usr/bin/unshare"), ["--mount", "/bin/sh", "-c", line])
            #expect(verified.status == 0 && verified.out.isEmpty, "\(unit): systemd-analyze verify said:\n\(verified.out)\(verified.err)")
        }
    }
}
