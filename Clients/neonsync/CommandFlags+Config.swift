import Glibc
import NeonClient
import NeonCore
import NeonSystem
import NeonTUI

/// The settings a command takes from outside its arguments: the
/// environment, then the config file (docs/CLIENT.md, "The config file").
/// A flag given on the command line wins over both, the environment over
/// the file; each setting remembers where its value came from, which
/// `neonsync config` prints.
extension CommandFlags {
    /// How a config file's value is stored: through the flag's own parser,
    /// handed the key as the flag's name.
    typealias Store = @Sendable (inout CommandFlags, _ key: String, _ value: String) throws(NeonError) -> Void

    /// The environment variable of each setting that has one (the token's
    /// holds the token, not a file).
    static let environment: [String: String] = [
        "server": CommandOption.serverEnvironment, "theme": ThemeName.environment, "token-file": CommandOption.tokenEnvironment,
    ]

    /// Each setting's store, for the environment's and the file's values.
    static let stores: [String: Store] = [
        "server": { flags, _, value in flags.connect.server = value },
        "name": { flags, key, value throws(NeonError) in
            if let problem = Hub.problem(withName: value) { throw NeonError.usage("\(key) \"\(value)\": \(problem)") }
            flags.connect.name = value
        },
        "theme": { flags, key, value throws(NeonError) in flags.connect.theme = try themeName(key, value) },
        "hyperlinks": { flags, key, value throws(NeonError) in flags.connect.hyperlinks = try hyperlinkChoice(key, value) },
        "graphics": { flags, key, value throws(NeonError) in flags.connect.graphics = try graphicsName(key, value) },
        "token-file": { flags, _, value throws(NeonError) in flags.connect.token = try tokenFileContents("token-file", value) },
    ]

    /// The flags given on the command line that set `key` (the token's two).
    static func flags(of key: String) -> [String] {
        key == "token-file" ? ["--token-file", "--token"] : ["--" + key]
    }

    /// Takes each setting of this command that no flag gave from the
    /// environment, else from the config file; notes every setting's source.
    mutating func settle(file: ConfigFile?, _ env: ProcessEnvironment) throws(NeonError) {
        for key in ConfigFile.keys {
            guard let option = ConfigFile.option(key), option.commands.contains(command) else { continue }
            if let flag = Self.flags(of: key).first(where: given.contains) {
                sources[key] = "the command line (\(flag))"
            } else if let variable = Self.environment[key], let value = env[variable] {
                if key == "token-file" {
                    connect.token = value
                } else {
                    do throws(NeonError) {
                        try Self.stores[key]?(&self, "$" + variable, value)
                    } catch {
                        throw NeonError.usage("\(error.sentence); \(help)")
                    }
                }
                sources[key] = "$" + variable
            } else if let file, let setting = file.setting(key) {
                do throws(NeonError) {
                    try Self.stores[key]?(&self, key, Self.path(setting.value, key: key, in: file.path))
                } catch {
                    throw NeonError.usage("\(file.path) line \(setting.line): \(error.sentence)")
                }
                sources[key] = "\(file.path) line \(setting.line)"
            }
        }
    }

    /// A file's path as the config file gives it: `~/` is the home
    /// directory, a relative path is relative to the config file's directory.
    static func path(_ value: String, key: String, in config: String) -> String {
        guard key == "token-file" else { return value }
        if value.hasPrefix("~/"), let home = ProcessEnvironment()["HOME"] { return home + value.dropFirst(1) }
        if value.hasPrefix("/") { return value }
        return String(config[..<(config.lastIndex(of: "/") ?? config.startIndex)]) + "/" + value
    }

    /// The config file at its place, or nil when there is none; one that
    /// cannot be read or is not a config file is refused (exit status 2).
    static func configFile(_ env: ProcessEnvironment) throws(NeonError) -> ConfigFile? {
        guard let path = ConfigFile.location({ env[$0] }) else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw NeonError.usage("cannot read the config file \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw NeonError.usage("the config file \(path) is not a file; make it a YAML file of settings or remove it")
        }
        guard let stream = fopen(path, "r") else {
            throw NeonError.usage("cannot read the config file \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(stream) }
        let limit = 65_536
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        let count = fread(&bytes, 1, bytes.count, stream)
        guard count <= limit else { throw NeonError.usage("the config file \(path) is larger than 64 KiB; it holds a few settings") }
        guard let text = String(validating: bytes[..<count], as: UTF8.self) else {
            throw NeonError.usage("the config file \(path) is not UTF-8 text")
        }
        return try ConfigFile(path: path, text: text)
    }
}
