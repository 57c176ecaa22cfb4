import Foundation
import NeonLock
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// The packages deploy/debian/build.sh makes from this tree, built once per
/// test run (the script's release build is incremental), and the ways the
/// tests look at them as a user's machine would.
enum DebianPackages {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let version = "0.0.0~test"
    static let dist = root.appendingPathComponent(".build/debian/test-dist")

    struct Built: Sendable {
        let client: URL
        /// The client's highlighting plug-in (neonsync-highlight).
        let highlight: URL
        /// What neonsync bench runs (neonsync-bench).
        let bench: URL
        let server: URL
        /// lintian's findings on the four.
        let lintian: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// build.sh run once, on a thread of its own: the tests await it
    /// without holding one of the few threads Swift's concurrency runs
    /// every other test on.
    final class Build: Sendable {
        private final class Slot: Sendable {
            let result = Locked<Result<Built, Failure>?>(nil)
        }

        private let slot = Slot()

        init() {
            let slot = slot
            Thread {
                let built = DebianPackages.build()
                slot.result.withLock { $0 = built }
            }.start()
        }

        func wait() async throws -> Built {
            let deadline = ContinuousClock.now + .seconds(1800)
            while ContinuousClock.now < deadline {
                if let done = slot.result.withLock({ $0 }) { return try done.get() }
                try await Task.sleep(for: .milliseconds(250))
            }
            throw Failure(description: "deploy/debian/build.sh did not finish within 30 minutes")
        }
    }

    static let running = Build()

    /// build.sh's packages, or why it failed (with the end of its output).
    static func build() -> Result<Built, Failure> {
        let log = dist.path + ".log"
        try? FileManager.default.createDirectory(at: dist, withIntermediateDirectories: true)
        // At the lowest priority: the release build shares two cores with
        // the rest of the suite, whose servers and terminals must not wait.
        let script = "DIST=\(Tmux.quote(dist.path)) nice -n 19 \(Tmux.quote(root.path))/deploy/debian/build.sh \(version) > \(Tmux.quote(log)) 2>&1"
        guard let run = try? runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", script]) else {
            return .failure(Failure(description: "could not run deploy/debian/build.sh"))
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard run.status == 0 else {
            return .failure(Failure(description: "build.sh exited \(run.status):\n" + output.split(separator: "\n").suffix(30).joined(separator: "\n")))
        }
        let arch = (try? runProgram(URL(fileURLWithPath: "/usr/bin/dpkg"), ["--print-architecture"]).out)?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "amd64"
        return .success(Built(client: dist.appendingPathComponent("neonsync_\(version)_\(arch).deb"),
                              highlight: dist.appendingPathComponent("neonsync-highlight_\(version)_\(arch).deb"),
                              bench: dist.appendingPathComponent("neonsync-bench_\(version)_\(arch).deb"),
                              server: dist.appendingPathComponent("neonsyncd_\(version)_\(arch).deb"),
                              lintian: (try? String(contentsOf: dist.appendingPathComponent("lintian.txt"), encoding: .utf8)) ?? ""))
    }

    static func packages() async throws -> Built {
        try await running.wait()
    }

    /// A fresh directory with packages unpacked in it (dpkg-deb -x): the
    /// four, or those `choose` picks; removed by the caller.
    static func unpacked(_ choose: (Built) -> [URL] = { [$0.client, $0.highlight, $0.bench, $0.server] }) async throws -> URL {
        let packages = try await packages()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory() + "neonsync-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for deb in choose(packages) {
            let unpack = try runProgram(URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-x", deb.path, directory.path])
            #expect(unpack.status == 0, "dpkg-deb -x \(deb.lastPathComponent): \(unpack.err)")
        }
        return directory
    }

    /// The Swift toolchain's directory: where `swift` resolves, three levels
    /// up from usr/bin/swift-driver (/opt/swift).
    static let toolchain: String = {
        let found = (try? runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "readlink -f \"$(command -v swift)\""]).out) ?? ""
        var path = URL(fileURLWithPath: found.trimmingCharacters(in: .whitespacesAndNewlines))
        for _ in 0..<3 { path.deleteLastPathComponent() }
        return path.path
    }()

    /// An empty directory bound over the toolchain's.
    static let emptyDirectory: String = {
        let path = NSTemporaryDirectory() + "neonsync-empty-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The variable that names the client's plug-in instead of its own
    /// places (unset for the packaged clients, which find theirs).
    static let pluginVariable = "NEONSYNC_HIGHLIGHT_PLUGIN"

    /// An empty file bound over files to hide.
    static let emptyFile: String = {
        let path = NSTemporaryDirectory() + "neonsync-empty-\(UUID().uuidString).so"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        return path
    }()

    /// `command` run in a mount namespace of its own where the toolchain's
    /// directory is empty, as on a machine without Swift, and each of
    /// `files` (a library, say) is an empty file, as on a machine without it.
    static func hidingToolchain(_ command: [String], files: [String] = []) -> [String] {
        let hideFiles = files.map { "mount --bind \(Tmux.quote(emptyFile)) \(Tmux.quote($0)) && " }.joined()
        return ["/usr/bin/unshare", "--mount", "/bin/sh", "-c",
                "mount --bind \(Tmux.quote(emptyDirectory)) \(Tmux.quote(toolchain)) && \(hideFiles)exec \"$@\"", "sh"] + command
    }

    /// The same as one shell line, for tmux.
    static func hidingToolchainLine(_ command: [String], files: [String] = []) -> String {
        hidingToolchain(command, files: files).map(Tmux.quote).joined(separator: " ")
    }
}
