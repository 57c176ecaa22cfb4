import Foundation
import NeonTestSupport
import Testing

/// neonsync-bench as Debian ships it (docs/PACKAGING.md): a package of its
/// own that puts the program in /usr/libexec/neonsync, where the packaged
/// neonsync finds it for `neonsync bench`. Run from packages unpacked into
/// a temporary root with the toolchain hidden, as in DebianInstallTests.
@Suite("neonsync bench from the packages", .serialized, .ownThreads)
struct DebianBenchTests {
    @Test("neonsync-bench depends on this very neonsync and what dpkg-shlibdeps finds (hiredis, no Swift, no Qt), and its program needs nothing of the toolchain")
    func package() async throws {
        let packages = try await DebianPackages.packages()
        let depends = try DebianInstallTests.field("Depends", of: packages.bench)
        for library in ["neonsync (= \(DebianPackages.version))", "libc6", "libwebsockets17", "libhiredis0.14"] {
            #expect(depends.contains(library), "neonsync-bench Depends: \(depends)")
        }
        #expect(!depends.contains("swift") && !depends.lowercased().contains("qt"), "neonsync-bench Depends: \(depends)")
        #expect(try DebianInstallTests.field("Enhances", of: packages.bench) == "neonsync")
        #expect(try DebianInstallTests.field("Suggests", of: packages.client).split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.contains("neonsync-bench"))
        let contents = try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-c", packages.bench.path]).out
        #expect(contents.contains("./usr/libexec/neonsync/neonsync-bench\n") && !contents.contains("./usr/bin/"), "\(contents)")
        let root = try await DebianPackages.unpacked { [$0.bench] }
        defer { try? FileManager.default.removeItem(at: root) }
        let libraries = try runProgram(URL(fileURLWithPath: "/usr/bin/ldd"),
                                       [root.appendingPathComponent("usr/libexec/neonsync/neonsync-bench").path]).out
        #expect(!libraries.contains(DebianPackages.toolchain) && !libraries.contains("libswift")
            && !libraries.contains("not found"), "neonsync-bench needs more than Debian's libraries:\n\(libraries)")
    }

    @Test("the packaged neonsync bench runs the packaged neonsync-bench against a real server, toolchain hidden: 4 connections held, the figures' line, exit 0; with neonsync alone it says to install neonsync-bench, exit 1")
    func runsFromThePackages() async throws {
        let server = try ServerProcess(["--max-rate", "0"])
        defer { _ = server.stop() }
        let arguments = ["bench", "connect", "--server", server.url, "--connections", "4", "--per-room", "2", "--duration", "0.5"]
        let both = try await DebianPackages.unpacked { [$0.client, $0.bench] }
        defer { try? FileManager.default.removeItem(at: both) }
        let client = both.appendingPathComponent("usr/bin/neonsync").path
        let run = try runProgram(URL(fileURLWithPath: "/usr/bin/unshare"),
                                 Array(DebianPackages.hidingToolchain([client] + arguments).dropFirst()))
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "neonsync bench connect → \(server.url) (neonsync)", "\(run.out)")
        let figures = lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any] ?? [:]
        #expect(figures["held"] as? Int == 4, "\(run.out)")

        let alone = try await DebianPackages.unpacked { [$0.client] }
        defer { try? FileManager.default.removeItem(at: alone) }
        let missing = try runProgram(URL(fileURLWithPath: "/usr/bin/unshare"), Array(DebianPackages.hidingToolchain(
            [alone.appendingPathComponent("usr/bin/neonsync").path] + arguments).dropFirst()))
        #expect(missing.status == 1)
        #expect(missing.err.contains("neonsync-bench, which runs the benchmarks, is not installed")
            && missing.err.contains("\(alone.path)/usr/libexec/neonsync/neonsync-bench")
            && missing.err.hasSuffix("or install the neonsync-bench package\n"), "\(missing.err)")
    }
}
