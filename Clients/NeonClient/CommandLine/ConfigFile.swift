import NeonCore

/// The client's config file, `$XDG_CONFIG_HOME/neonsync/config.yaml`
/// (`~/.config/neonsync/config.yaml` when the variable is unset): a YAML
/// mapping, read with libyaml, of settings named as the flags that set
/// them without their dashes (`theme: light`, `token-file: ~/room.token`).
/// Flags win over the environment, which wins over the file
/// (docs/CLIENT.md, "The config file"). This reads the text; the values are
/// checked by the flags' own parsers where they are applied.
public struct ConfigFile: Equatable, Sendable {
    /// One `key: value` of the file, with the line it is on (1 for the first).
    public struct Setting: Equatable, Sendable {
        public let key: String
        public let value: String
        public let line: Int
    }

    /// Where the file is, as given.
    public let path: String
    /// Its settings, in the order written.
    public let settings: [Setting]

    /// The settings a file may hold: each is the flag `--KEY`, for the
    /// commands that take that flag.
    public static let keys = ["server", "name", "theme", "hyperlinks", "graphics", "token-file"]

    /// The flag each key stands for.
    public static func option(_ key: String) -> CommandOption? {
        keys.contains(key) ? CommandOption.named("--" + key) : nil
    }

    /// Where the file is read from, from the environment's
    /// `XDG_CONFIG_HOME` (an absolute path; a relative one is ignored, as
    /// the XDG Base Directory specification says) or `HOME`; nil with neither.
    public static func location(_ environment: (String) -> String?) -> String? {
        if let base = environment("XDG_CONFIG_HOME"), base.hasPrefix("/") {
            return base + "/neonsync/config.yaml"
        }
        return environment("HOME").map { $0 + "/.config/neonsync/config.yaml" }
    }

    /// The file's settings from its text; a text that is not a mapping of
    /// known keys to single values is refused with a usage sentence that
    /// names the file, the line and what is allowed (exit status 2).
    public init(path: String, text: String) throws(NeonError) {
        self.path = path
        let allowed = "the settings are " + Self.keys.joined(separator: ", ") + ", one `key: value` a line"
        let root: YAMLNode?
        do {
            root = try YAMLNode.parse(text)
        } catch {
            throw NeonError.usage("\(path) line \(error.line) is not YAML (\(error.problem)); \(allowed)")
        }
        guard let root else {
            settings = []
            return
        }
        guard let entries = root.entries else {
            throw NeonError.usage("\(path) line \(root.line) is not a mapping of settings; \(allowed)")
        }
        var settings: [Setting] = []
        for entry in entries {
            guard let key = entry.key.text, Self.keys.contains(key) else {
                let written = entry.key.text ?? entry.key.words.joined(separator: " ")
                let near = Suggestion.sentence(for: written, among: Self.keys).map { " (\($0))" } ?? ""
                throw NeonError.usage("\(path) line \(entry.key.line): unknown setting \"\(written)\"\(near); \(allowed)")
            }
            guard let value = entry.value.text else {
                throw NeonError.usage("\(path) line \(entry.value.line): \(key) takes one value, not a list or a mapping (\(key): VALUE)")
            }
            if let first = settings.first(where: { $0.key == key }) {
                throw NeonError.usage("\(path) line \(entry.key.line): \(key) is set twice (first on line \(first.line)); keep one")
            }
            settings.append(Setting(key: key, value: value, line: entry.key.line))
        }
        self.settings = settings
    }

    /// The file's setting of `key`, if it has one.
    public func setting(_ key: String) -> Setting? {
        settings.first { $0.key == key }
    }
}
