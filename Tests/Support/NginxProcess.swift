import Foundation
import Glibc

/// Debian's nginx (installed by deploy/setup.sh) in the foreground, in a
/// temporary directory of its own: pid file, logs and temporary files there,
/// one worker, serving `site` (an http-level configuration such as
/// deploy/nginx/neonsync.conf rendered by deploy/nginx/render.sh). Stopped
/// and its directory removed when the value goes.
public final class NginxProcess: @unchecked Sendable {
    /// The prefix directory: nginx.conf, site.conf, error.log and the
    /// logs the site names.
    public let directory: String
    /// The loopback port the site listens on.
    public let port: Int
    private let process: Process

    /// The directory `site` should write its logs to, made before nginx
    /// starts; render the site with `--logs` pointing here.
    public static func makeDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "neonsync-nginx-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Checks the configuration (`nginx -t`), starts nginx and waits until
    /// 127.0.0.1:`port` accepts connections. `http` lines go into the main
    /// configuration's http block, around the site (settings of this test
    /// machine, such as the address nginx connects to the nodes from).
    public init(site: String, directory: String, port: Int, http: [String] = []) throws {
        self.directory = directory
        self.port = port
        try site.write(toFile: directory + "/site.conf", atomically: true, encoding: .utf8)
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map {
            "    \($0)_temp_path \(directory)/\($0);"
        }.joined(separator: "\n")
        let main = """
        daemon off;
        master_process on;
        worker_processes 1;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log info;
        events { worker_connections 1024; }
        http {
        \(temporary)
        \(http.map { "    " + $0 }.joined(separator: "\n"))
            include \(directory)/site.conf;
        }

        """
        try main.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        let arguments = ["-p", directory, "-c", directory + "/nginx.conf", "-e", directory + "/error.log"]
        let check = try runProgram(Self.binary, ["-t", "-q"] + arguments)
        guard check.status == 0 else {
            throw ServerProcessError("nginx -t refused the configuration:\n\(check.err)\n\(site)")
        }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.runUnblocked()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? RawSocket(port: port)) != nil { return }
            guard !process.hasExited else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
        throw ServerProcessError("nginx did not listen on 127.0.0.1:\(port) within 10 s: \(errorLog)")
    }

    public static let binary = URL(fileURLWithPath: "/usr/sbin/nginx")

    public var pid: Int32 { process.processIdentifier }

    /// nginx's own error log (and the site's, when it writes there).
    public var errorLog: String {
        (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? ""
    }

    /// A log file of the site, by name (e.g. `neonsync.access.log`).
    public func log(_ name: String) -> String {
        (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
    }

    /// Graceful stop (SIGQUIT: open connections finish), then SIGTERM, then
    /// SIGKILL, each bounded; returns whether nginx had exited by itself.
    @discardableResult
    public func stop(timeout: TimeInterval = 5) -> Bool {
        for (signal, wait) in [(SIGQUIT, timeout), (SIGTERM, 2.0), (SIGKILL, 2.0)] {
            guard !process.hasExited else { return signal == SIGQUIT || signal == SIGTERM }
            kill(process.processIdentifier, signal)
            let deadline = Date().addingTimeInterval(wait)
            while !process.hasExited, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.hasExited { return signal != SIGKILL }
        }
        return false
    }

    deinit {
        stop(timeout: 2)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
