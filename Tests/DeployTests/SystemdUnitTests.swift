import Foundation
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// The shipped systemd units and logrotate file, checked with the tools that
/// read them (systemd-analyze, logrotate, neonsyncd itself).
@Suite("deploy/systemd and deploy/logrotate", .serialized, .ownThreads)
struct SystemdUnitTests {
    static let deploy = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy")
    /// Each unit and the name it is checked under (a template as an instance).
    static let units = ["neonsyncd.service": "neonsyncd.service", "neonsyncd@.service": "neonsyncd@7681.service"]
    static let installedBinary = "/usr/local/bin/neonsyncd"
    /// What systemd's %H gives: gethostname(2).
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// `Key=value` lines of a unit, in order, comments and sections dropped.
    static func directives(_ unit: String) throws -> [(key: String, value: String)] {
        let text = try String(contentsOf: deploy.appendingPathComponent("systemd/\(unit)"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let eq = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<eq]), String(line[line.index(after: eq)...]))
        }
    }

    static func value(_ key: String, in unit: String) throws -> [String] {
        try directives(unit).filter { $0.key == key }.map(\.value)
    }

    /// The ExecStart command line with the specifiers it uses expanded as
    /// systemd would for `instance` (the template's %i).
    static func command(_ unit: String) throws -> [String] {
        let line = try #require(try value("ExecStart", in: unit).first)
        #expect(!line.contains("\"") && !line.contains("'") && !line.contains("$"), "no quoting or variables to expand: \(line)")
        let name = units[unit] ?? unit
        let expansions = ["%i": "7681", "%H": Self.hostName, "%d": "/run/credentials/\(name)",
                          "%S": "/var/lib", "%L": "/var/log"]
        return line.split(separator: " ").map { word in
            var word = String(word)
            for (specifier, value) in expansions { word = word.replacingOccurrences(of: specifier, with: value) }
            #expect(!word.contains("%"), "a specifier this test does not know: \(word)")
            return word
        }
    }

    @Test("deploy/systemd holds exactly the units this suite checks")
    func everyUnitIsChecked() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.deploy.appendingPathComponent("systemd").path)
        #expect(Set(files) == Set(Self.units.keys))
    }

    @Test("systemd-analyze verify passes every unit without a word, and its offline security review rates each OK (exposure at most 2.0)")
    func verify() throws {
        let directory = NSTemporaryDirectory() + "neonsync-units-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (unit, name) in Self.units {
            let text = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/\(unit)"), encoding: .utf8)
            #expect(try Self.command(unit).first == Self.installedBinary)
            // verify wants the binary to exist: the one built beside the tests, every other line as shipped.
            let path = directory + "/" + name
            try text.replacingOccurrences(of: Self.installedBinary, with: ServerProcess.binary.path)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let verified = try runProgram(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", "--man=no", path])
            #expect(verified.status == 0 && verified.err.isEmpty && verified.out.isEmpty,
                    "\(unit): systemd-analyze verify said:\n\(verified.out)\(verified.err)")
            let security = try runProgram(URL(fileURLWithPath: "/usr/bin/systemd-analyze"),
                                          ["security", "--offline=true", "--threshold=20", "--no-pager", path])
            #expect(security.status == 0, "\(unit): exposure above 2.0:\n\(security.out.split(separator: "\n").suffix(3).joined(separator: "\n"))")
            #expect(security.out.contains("Overall exposure level for \(name): 1.") , "\(security.out.split(separator: "\n").last ?? "")")
        }
    }

    @Test("every flag a unit passes is one neonsyncd --help documents, and each unit's whole command line parses")
    func flagsExist() throws {
        let help = try runDaemon(["--help"])
        #expect(help.status == 0)
        let documented = Set(help.out.matches(of: /--[a-z][a-z-]+/).map { String($0.output) })
        for unit in Self.units.keys {
            let command = try Self.command(unit)
            let flags = command.dropFirst().filter { $0.hasPrefix("--") }
            #expect(!flags.isEmpty)
            for flag in flags {
                #expect(documented.contains(flag), "\(unit) passes \(flag), which neonsyncd --help does not document")
            }
            // --help after the unit's flags: exit 0 only when every one of them parses.
            let parsed = try runDaemon(Array(command.dropFirst()) + ["--help"])
            #expect(parsed.status == 0, "\(unit): \(parsed.err)")
        }
    }

    @Test("the units are hardened like distribution units: own dynamic user, private state and logs, read-only system, no new privileges, descriptors for 10k+ connections, restart on failure, SIGHUP on reload, secrets as credentials")
    func hardening() throws {
        for unit in Self.units.keys {
            func one(_ key: String) throws -> String? { try Self.value(key, in: unit).last }
            #expect(try one("DynamicUser") == "yes" && one("User") == "neonsync")
            #expect(try one("ProtectSystem") == "strict")
            #expect(try one("NoNewPrivileges") == "yes")
            #expect(try one("ProtectHome") == "yes" && one("PrivateTmp") == "yes")
            #expect(try one("CapabilityBoundingSet") == "")
            #expect(try Int(one("LimitNOFILE") ?? "") ?? 0 >= 20_000)
            #expect(try one("Restart") == "on-failure")
            #expect(try one("RestartPreventExitStatus") == "2", "bad flags are not retried")
            #expect(try one("ExecReload") == "/bin/kill -HUP $MAINPID")
            #expect(try one("LogsDirectory") == "neonsync" && one("LogsDirectoryMode") == "0700")
            #expect(try one("UMask") == "0077")
            let credentials = try Self.value("LoadCredential", in: unit)
            #expect(credentials.contains("secret:/etc/neonsync/secret"))
            let command = try Self.command(unit)
            func flag(_ name: String) -> String? {
                command.firstIndex(of: name).flatMap { $0 + 1 < command.count ? command[$0 + 1] : nil }
            }
            let credentialDirectory = "/run/credentials/\(Self.units[unit]!)/"
            #expect(flag("--secret-file") == credentialDirectory + "secret")
            #expect(flag("--log")?.hasPrefix("/var/log/neonsync/") == true)
            #expect(command.contains("--trust-proxy"), "behind nginx on the host")
        }
        #expect(try Self.value("StateDirectory", in: "neonsyncd.service") == ["neonsync"])
        #expect(try Self.value("StateDirectoryMode", in: "neonsyncd.service") == ["0700"])
        let single = try Self.command("neonsyncd.service")
        #expect(single[(single.firstIndex(of: "--data") ?? 0) + 1] == "/var/lib/neonsync")
        let node = try Self.command("neonsyncd@.service")
        #expect(try Self.value("LoadCredential", in: "neonsyncd@.service").contains("redis-password:/etc/neonsync/redis-password"))
        #expect(node[(node.firstIndex(of: "--redis-password-file") ?? 0) + 1] == "/run/credentials/neonsyncd@7681.service/redis-password")
        #expect(node[(node.firstIndex(of: "--port") ?? 0) + 1] == "7681", "instance = port")
        #expect(node[(node.firstIndex(of: "--node") ?? 0) + 1] == "\(Self.hostName):7681")
    }

    @Test("deploy/logrotate/neonsyncd rotates a running neonsyncd's log: its postrotate reloads the units, SIGHUP reopens the log, new lines go to a new private file, and the old one is compressed a cycle later")
    func logrotate() async throws {
        let directory = NSTemporaryDirectory() + "neonsync-logrotate-\(UUID().uuidString)"
        let logs = directory + "/log"
        let bin = directory + "/bin"
        for path in [logs, bin] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = logs + "/neonsyncd.jsonl"
        let node = try RunningProgram(ServerProcess.binary, ["--port", "0", "--log", log, "--data", directory + "/data"])
        let listening = try #require(await node.errorLine(timeout: .seconds(30)) { $0.contains("listening on") }, "\(node.errorLines) \(node.lines)")
        let port = try #require(Int(listening.firstMatch(of: /:(\d+)\//)?.output.1 ?? ""))

        // The shipped file, with its log directory moved here; systemctl is a
        // stand-in that records what it was asked and reloads the way
        // ExecReload= would: SIGHUP to the main process.
        let shipped = try String(contentsOf: Self.deploy.appendingPathComponent("logrotate/neonsyncd"), encoding: .utf8)
        #expect(shipped.contains("/var/log/neonsync/*.jsonl {"))
        let config = directory + "/neonsyncd"
        try shipped.replacingOccurrences(of: "/var/log/neonsync/", with: logs + "/")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let calls = directory + "/systemctl.calls"
        try writeExecutable("#!/bin/sh\necho \"$*\" >> \(calls)\nkill -HUP \(node.pid)\n", to: bin + "/systemctl")
        func rotate() throws {
            let run = try runProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                     ["PATH=\(bin):/usr/bin:/bin:/usr/sbin:/sbin", "logrotate", "-f", "-s", directory + "/state", config])
            #expect(run.status == 0, "logrotate said: \(run.out)\(run.err)")
        }

        try rotate()
        #expect(try String(contentsOfFile: calls, encoding: .utf8)
                == "try-reload-or-restart neonsyncd.service neonsyncd@*.service\n")
        #expect(try String(contentsOfFile: log + ".1", encoding: .utf8).contains(#""event":"start""#))
        // nocreate: the new file appears when neonsyncd has handled the
        // SIGHUP the reload sent, which may be after logrotate returned; its
        // first line says the log was reopened.
        #expect(await eventually { (try? String(contentsOfFile: log, encoding: .utf8))?.contains(#""event":"log_reopened""#) == true },
                "neonsyncd reopened its log")
        _ = try RawWebSocket(port: port)
        #expect(await eventually { (try? String(contentsOfFile: log, encoding: .utf8))?.contains(#""event":"connect""#) == true },
                "after SIGHUP the connect line goes to a new file")
        let mode = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!((try? String(contentsOfFile: log + ".1", encoding: .utf8)) ?? "").contains(#""event":"connect""#))

        try rotate()
        #expect(FileManager.default.fileExists(atPath: log + ".2.gz"), "compressed one cycle later")
        #expect(FileManager.default.fileExists(atPath: log + ".1"))
        #expect(await node.stop() == 0)
    }
}
