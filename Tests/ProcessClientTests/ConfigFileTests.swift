import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// The client's config file ($XDG_CONFIG_HOME/neonsync/config.yaml) as a
/// user meets it: `neonsync config`'s report, a command's settings at a
/// real server (flags over the environment over the file), and the
/// refusal of what the file may not hold.
@Suite("the config file", .serialized, .ownThreads)
struct ConfigFileTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync")
    /// The variables of the machine that would change the results.
    static let unset = ["NEONSYNC_SERVER", "NEONSYNC_TOKEN", "NEONSYNC_THEME", "XDG_CONFIG_HOME"]

    /// A fresh XDG_CONFIG_HOME whose neonsync/config.yaml holds `text`; removed by the caller.
    static func configHome(_ text: String) throws -> URL {
        let home = URL(fileURLWithPath: NSTemporaryDirectory() + "neonsync-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("neonsync"), withIntermediateDirectories: true)
        try text.write(to: home.appendingPathComponent("neonsync/config.yaml"), atomically: true, encoding: .utf8)
        return home
    }

    /// `neonsync ARGS` to its end with `environment` and nothing else of the settings' variables.
    static func run(_ arguments: [String], _ environment: [String: String]) throws -> (status: Int32, out: String, err: String) {
        let env = unset.flatMap { ["-u", $0] } + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try runProgram(URL(fileURLWithPath: "/usr/bin/env"), env + [client.path] + arguments)
    }

    @Test("neonsync config prints each setting with its source: the file's line, the environment over the file, the defaults; its output is YAML that reads back")
    func report() throws {
        let home = try Self.configHome("""
            # the settings of this machine
            server: ws://127.0.0.1:9/
            name: "ada: the first"
            theme: light
            hyperlinks: never
            """)
        defer { try? FileManager.default.removeItem(at: home) }
        let path = home.appendingPathComponent("neonsync/config.yaml").path
        let run = try Self.run(["config"], ["XDG_CONFIG_HOME": home.path, "NEONSYNC_THEME": "ascii"])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "# config file: \(path)")
        let sources = Dictionary(lines.dropFirst().filter { !$0.hasPrefix("#") }.map { line in
            (String(line.prefix { $0 != ":" }), String(line[line.range(of: "  # ")!.upperBound...]))
        }, uniquingKeysWith: { first, _ in first })
        #expect(sources == ["server": "\(path) line 2", "name": "\(path) line 3", "theme": "$NEONSYNC_THEME",
                            "hyperlinks": "\(path) line 5", "graphics": "the default"], "\(run.out)")
        #expect(lines.last == "# token-file: none: no token is sent")
        let read = try #require(try YAMLNode.parse(run.out)?.entries)
        #expect(read.map { [$0.key.text, $0.value.text] } == [["server", "ws://127.0.0.1:9/"], ["name", "ada: the first"],
                                                               ["theme", "ascii"], ["hyperlinks", "never"], ["graphics", "auto"]])
        let none = try Self.run(["config"], ["XDG_CONFIG_HOME": home.path + "/nowhere"])
        #expect(none.status == 0 && none.out.hasPrefix("# config file: \(home.path)/nowhere/neonsync/config.yaml (none there)\n"
            + "server: ws://127.0.0.1:7681/  # the default\n"), "\(none.out)")
    }

    @Test("a command takes the file's name and server; the environment's server wins over the file's, a flag over both")
    func precedence() async throws {
        let server = try ServerProcess()
        defer { _ = server.stop() }
        let home = try Self.configHome("server: ws://127.0.0.1:1/\nname: filed\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let nowhere = "ws://127.0.0.1:1/"
        let cases: [(arguments: [String], environment: [String: String], name: String)] = [
            (["--server", server.url], [:], "filed"),
            (["--name", "flagged"], ["NEONSYNC_SERVER": server.url], "flagged"),
            (["--server", server.url, "--name", "both"], ["NEONSYNC_SERVER": nowhere], "both"),
        ]
        for (arguments, environment, name) in cases {
            let tail = try RunningProgram(Self.client, ["tail", "cfg"] + arguments,
                                          environment: environment.merging(["XDG_CONFIG_HOME": home.path]) { $1 })
            let joined = await server.log { $0["event"] as? String == "join" && $0["name"] as? String == name }
            #expect(joined != nil, "\(arguments) \(environment): \(tail.errorLines)")
            #expect(await tail.stop() == 0)
        }
    }

    @Test("a bad key or value is refused with the file, the line and what is allowed, exit status 2, by neonsync config and by a command alike")
    func refused() throws {
        let cases: [(text: String, sentence: (String) -> String)] = [
            ("theme: light\nthme: dark\n", { "\($0) line 2: unknown setting \"thme\" (did you mean theme?); the settings are "
                + "server, name, theme, hyperlinks, graphics, token-file, one `key: value` a line" }),
            ("hyperlinks: sometimes\n", { "\($0) line 1: hyperlinks needs auto, always or never, not \"sometimes\"" }),
            ("theme: neon\n", { "\($0) line 1: theme \"neon\" is not a theme; choose one of dark, light, ascii" }),
            ("graphics: [kitty, sixel]\n", { "\($0) line 1: graphics takes one value, not a list or a mapping (graphics: VALUE)" }),
            ("name: ada\nname: bob\n", { "\($0) line 2: name is set twice (first on line 1); keep one" }),
            ("server: \"ws://unclosed\n", { "\($0) line 2 is not YAML (" }),
            ("- theme\n- light\n", { "\($0) line 1 is not a mapping of settings; the settings are " }),
        ]
        for (text, sentence) in cases {
            let home = try Self.configHome(text)
            defer { try? FileManager.default.removeItem(at: home) }
            let expected = sentence(home.appendingPathComponent("neonsync/config.yaml").path)
            for arguments in [["config"], ["join", "room"]] {
                let run = try Self.run(arguments, ["XDG_CONFIG_HOME": home.path])
                #expect(run.status == 2 && run.err.contains(expected) && run.out.isEmpty, "\(arguments) with \(text.debugDescription): \(run.err)")
            }
        }
    }

    @Test("token-file in the file is read relative to the file's directory, and one that is missing is refused naming both files")
    func tokenFile() throws {
        let home = try Self.configHome("token-file: room.token\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("neonsync/config.yaml").path
        let missing = try Self.run(["config"], ["XDG_CONFIG_HOME": home.path])
        #expect(missing.status == 2 && missing.err.contains("\(config) line 1: ")
            && missing.err.contains(home.appendingPathComponent("neonsync/room.token").path), "\(missing.err)")
        let token = home.appendingPathComponent("neonsync/room.token")
        try "secret-token\n".write(to: token, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: token.path)
        let run = try Self.run(["config"], ["XDG_CONFIG_HOME": home.path])
        #expect(run.status == 0 && run.out.split(separator: "\n").contains { $0.hasPrefix("token-file: room.token ") && $0.hasSuffix("# \(config) line 1") },
                "\(run.out)\(run.err)")
        #expect(!run.out.contains("secret-token"))
        let env = try Self.run(["config"], ["XDG_CONFIG_HOME": home.path, "NEONSYNC_TOKEN": "other"])
        #expect(env.out.contains("# token-file: the token comes from $NEONSYNC_TOKEN") && !env.out.contains("other"), "\(env.out)")
    }
}
