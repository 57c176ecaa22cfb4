import Glibc
import NeonCore
import NeonSystem

/// The code highlighter's plug-in: libNeonSyntax.so, KDE's
/// KSyntaxHighlighting (C++ and Qt behind it) behind the C face of
/// Sources/CSyntaxHighlighting/include/NeonSyntax.h. neonsync does not link
/// it, so the client installs and runs without Qt: it is opened at run time
/// (dlopen), once per process, and its functions are called through
/// `@convention(c)` pointers found by name (dlsym). Without it, or when its
/// libraries are missing, Debian's `highlight` highlights as a helper
/// process (HighlightProgram), else code is drawn as before highlighting
/// existed, in the code colour; `neonsync --version` says which and why.
///
/// Where it is looked for, first found first: `NEONSYNC_HIGHLIGHT_PLUGIN`
/// (a file; when set, nothing else), then beside the executable (a
/// development build's .build/debug or .build/release, where `swift build`
/// makes the NeonSyntax product), then in ../lib/neonsync beside the
/// executable's directory (/usr/lib/neonsync for /usr/bin/neonsync, where
/// the neonsync-highlight package puts it).
public struct HighlighterPlugin: Sendable {
    /// The plug-in's file name.
    public static let fileName = "libNeonSyntax.so"
    /// The variable naming the plug-in's file instead.
    public static let environmentVariable = "NEONSYNC_HIGHLIGHT_PLUGIN"
    /// The Debian package that installs it.
    public static let package = "neonsync-highlight"
    /// NEON_SYNTAX_INTERFACE of NeonSyntax.h, as this code calls it.
    static let interface: Int32 = 1

    /// What loading it came to.
    public enum State: Sendable, Equatable {
        /// Loaded from `path`; `version` is the library and its version
        /// ("KSyntaxHighlighting 5.103.0").
        case loaded(path: String, version: String)
        /// No file at any of the places looked at.
        case missing(searched: [String])
        /// A file at `path` that could not be used, and why (the dynamic
        /// loader's words, or a function it lacks).
        case unusable(path: String, reason: String)
    }

    public let state: State
    let functions: Functions?

    /// The plug-in's C functions (NeonSyntax.h).
    struct Functions: @unchecked Sendable {
        // @unchecked: C function pointers into a library that is never
        // unloaded, immutable once found; they hold no state of their own.
        typealias Token = @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int32) -> Void
        let make: @convention(c) () -> OpaquePointer?
        let free: @convention(c) (OpaquePointer?) -> Void
        let find: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
        let name: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<CChar>?, Int32) -> Int32
        let highlight: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, Int, Token?, UnsafeMutableRawPointer?) -> Void
    }

    /// The plug-in of this process: looked for and opened at first use.
    public static let shared = HighlighterPlugin(candidates: candidates())

    /// The places looked at, in order, for this process: from its
    /// environment and its executable's real path.
    public static func candidates(environment: [String: String]? = nil, executable: String? = nil) -> [String] {
        let named = environment.map { $0[environmentVariable] } ?? getenv(environmentVariable).map { String(cString: $0) }
        if let named, !named.isEmpty { return [named] }
        guard let executable = executable ?? Companion.executablePath() else { return [] }
        return Companion.places(of: fileName, beside: executable, orIn: "lib/neonsync")
    }

    /// Opens the first of `candidates` that exists; a file that cannot be
    /// used is reported unless a later one loads. The library is never
    /// closed (Qt cannot be unloaded safely); opening the same file again
    /// gets the same library.
    public init(candidates: [String]) {
        var firstFailure: (path: String, reason: String)?
        for path in candidates where access(path, F_OK) == 0 {
            switch Self.open(path) {
            case let .success(found):
                state = .loaded(path: path, version: found.version)
                functions = found.functions
                return
            case let .failure(failure):
                if firstFailure == nil { firstFailure = (path, failure.reason) }
            }
        }
        functions = nil
        if let firstFailure {
            state = .unusable(path: firstFailure.path, reason: firstFailure.reason)
        } else {
            state = .missing(searched: candidates)
        }
    }

    private struct LoadError: Error {
        let reason: String
    }

    private static func open(_ path: String) -> Result<(functions: Functions, version: String), LoadError> {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(LoadError(reason: dlerror().map { String(cString: $0) } ?? "the dynamic loader refused it"))
        }
        func symbol<T>(_ name: String, as _: T.Type) throws(LoadError) -> T {
            guard let found = dlsym(handle, name) else { throw LoadError(reason: "it has no function \(name)") }
            return unsafeBitCast(found, to: T.self)
        }
        do throws(LoadError) {
            let interface = try symbol("neon_syntax_interface", as: (@convention(c) () -> Int32).self)()
            guard interface == Self.interface else {
                throw LoadError(reason: "it is the plug-in of another neonsync (interface \(interface), this one needs \(Self.interface))")
            }
            let version = try symbol("neon_syntax_version", as: (@convention(c) () -> UnsafePointer<CChar>?).self)()
            let functions = Functions(
                make: try symbol("neon_syntax_new", as: (@convention(c) () -> OpaquePointer?).self),
                free: try symbol("neon_syntax_free", as: (@convention(c) (OpaquePointer?) -> Void).self),
                find: try symbol("neon_syntax_find", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32).self),
                name: try symbol("neon_syntax_name",
                                 as: (@convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<CChar>?, Int32) -> Int32).self),
                highlight: try symbol("neon_syntax_highlight",
                                      as: (@convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, Int, Functions.Token?,
                                                           UnsafeMutableRawPointer?) -> Void).self))
            return .success((functions, version.map { String(cString: $0) } ?? "KSyntaxHighlighting"))
        } catch {
            return .failure(error)
        }
    }

    /// What `neonsync --version` says after "highlighting: ".
    public var summary: String {
        switch state {
        case let .loaded(_, version):
            version
        case let .missing(searched) where searched.contains { $0.contains("/.build/") }:
            // A development build: `swift build` makes it, `swift run
            // neonsync` (the one product) does not.
            "not built (swift build --product NeonSyntax)"
        case .missing:
            "not installed (apt install \(Self.package))"
        case let .unusable(path, reason):
            "off: \(path) could not be loaded: \(reason)"
        }
    }
}

/// Highlights a document's fenced code with KDE's KSyntaxHighlighting (its
/// definitions for some 350 languages are compiled into the library),
/// through the plug-in: the fence's language is resolved by the library's
/// names and file extensions, after the aliases people write in fences
/// (`sh`, `shell`, `js`, `yml`, `objc`…), and every token the library
/// styles becomes a `CodeRun` of the class it belongs to. Without the
/// plug-in, Debian's `highlight` in `$PATH` does it as a helper process
/// (`HighlightProgram`). Code in a language neither knows, with none, or in
/// a client with neither gets no runs and is drawn as before.
///
/// Not Sendable: it holds the library's repository and one highlighter,
/// used from one thread (the client's main thread).
public final class CodeHighlighter {
    private let functions: HighlighterPlugin.Functions?
    private let syntax: OpaquePointer?
    /// Fence languages already resolved, to a definition or to none.
    private var resolved: [String: Int32] = [:]
    /// The helper process, when the plug-in did not load.
    public let program: HighlightProgram?
    /// The helper's answers by language and code, so a document that
    /// changes runs it only for the blocks that changed.
    private var programRuns: [ProgramKey: [CodeRun]?] = [:]

    private struct ProgramKey: Hashable {
        let language: String
        let code: String
    }

    /// A highlighter on `plugin` (the process's own by default), else on
    /// `program` (`highlight` in `$PATH` by default); one that highlights
    /// nothing when neither is there.
    public init(plugin: HighlighterPlugin = .shared, program: @autoclosure () -> HighlightProgram? = HighlightProgram()) {
        let made = plugin.functions.flatMap { functions in functions.make().map { (functions, $0) } }
        functions = made?.0
        syntax = made?.1
        self.program = made == nil ? program() : nil
    }

    deinit {
        if let functions, let syntax { functions.free(syntax) }
    }

    /// Whether this highlighter highlights: the plug-in loaded and made
    /// its repository of definitions, or the helper program is there.
    public var isAvailable: Bool { syntax != nil || program != nil }

    /// Fence names that are neither a definition's name nor a file
    /// extension the library knows, with the name to look up instead.
    static let aliases: [String: String] = [
        "shell": "sh", "console": "sh", "shellsession": "sh", "zsh": "zsh", "bash": "sh",
        "golang": "go", "javascript": "js", "node": "js", "typescript": "ts",
        "objc": "m", "objective-c": "m", "objectivec": "m", "c++": "cpp", "c#": "cs", "csharp": "cs",
        "f#": "fs", "fsharp": "fs", "kotlin": "kt", "rust": "rs", "ruby": "rb", "python": "py", "python3": "py",
        "py3": "py", "perl": "pl", "powershell": "ps1", "pwsh": "ps1", "ps": "ps1", "yml": "yaml",
        "dockerfile": "Dockerfile", "docker": "Dockerfile", "make": "Makefile", "makefile": "Makefile",
        "elixir": "ex", "erlang": "erl", "haskell": "hs", "clojure": "clj", "julia": "jl", "ocaml": "ml",
        "markdown": "md", "text": "", "plaintext": "", "txt": "", "plain": "",
    ]

    /// The library's definition for a fence's language, or nil.
    func definition(for language: String) -> Int32? {
        guard let functions, let syntax else { return nil }
        if let known = resolved[language] { return known >= 0 ? known : nil }
        let lowered = language.lowercased()
        let name = Self.aliases[lowered] ?? lowered
        var found: Int32 = -1
        if !name.isEmpty {
            found = functions.find(syntax, name)
            if found < 0, name != language { found = functions.find(syntax, language) }
        }
        resolved[language] = found
        return found >= 0 ? found : nil
    }

    /// The name of the definition a fence's language resolves to, or nil.
    public func definitionName(for language: String) -> String? {
        guard let functions, let index = definition(for: language) else { return nil }
        var bytes = [CChar](repeating: 0, count: 128)
        _ = functions.name(syntax, index, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The tokens of `code` in `language`, or nil for a language the library
    /// (or the helper program) does not know or could not highlight.
    public func runs(of code: String, language: String) -> [CodeRun]? {
        if let program {
            let key = ProgramKey(language: language, code: code)
            if let known = programRuns[key] { return known }
            if programRuns.count >= 512 { programRuns.removeAll() }
            let runs = program.runs(of: code, language: language)
            programRuns[key] = runs
            return runs
        }
        guard let functions, let index = definition(for: language) else { return nil }
        var sink = TokenSink()
        var code = code
        code.withUTF8 { bytes in
            withUnsafeMutablePointer(to: &sink) { pointer in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    functions.highlight(syntax, index, chars.baseAddress, chars.count, { context, start, length, style in
                        context!.assumingMemoryBound(to: TokenSink.self).pointee.add(start, length, style)
                    }, pointer)
                }
            }
        }
        return sink.runs
    }

    /// Every fenced code block of `document` with a language the library
    /// knows, highlighted.
    public func highlights(of document: Document) -> CodeHighlights {
        var out: [Int: [CodeRun]] = [:]
        for request in CodeHighlights.requests(in: document) {
            if let runs = runs(of: request.code, language: request.language), !runs.isEmpty {
                out[request.block] = runs
            }
        }
        return CodeHighlights(runs: out)
    }
}

/// Collects the library's tokens as runs: adjacent tokens of one class
/// merged, styles the reader does not tell apart left out.
private struct TokenSink {
    var runs: [CodeRun] = []

    mutating func add(_ start: Int64, _ length: Int64, _ style: Int32) {
        guard let kind = Self.classes[Int(style)] else { return }
        let range = Int(start)..<Int(start + length)
        if let last = runs.last, last.kind == kind, last.bytes.upperBound == range.lowerBound {
            runs[runs.count - 1] = CodeRun(bytes: last.bytes.lowerBound..<range.upperBound, kind: kind)
        } else {
            runs.append(CodeRun(bytes: range, kind: kind))
        }
    }

    /// KSyntaxHighlighting::Theme::TextStyle, in its order, to a class.
    static let classes: [Int: CodeClass] = [
        1: .keyword,      // Keyword
        2: .function,     // Function
        3: .variable,     // Variable
        4: .keyword,      // ControlFlow
        6: .builtin,      // BuiltIn
        7: .builtin,      // Extension
        8: .preprocessor, // Preprocessor
        9: .attribute,    // Attribute
        10: .string,      // Char
        11: .escape,      // SpecialChar
        12: .string,      // String
        13: .string,      // VerbatimString
        14: .escape,      // SpecialString
        15: .preprocessor, // Import
        16: .type,        // DataType
        17: .number,      // DecVal
        18: .number,      // BaseN
        19: .number,      // Float
        20: .constant,    // Constant
        21: .comment,     // Comment
        22: .comment,     // Documentation
        23: .attribute,   // Annotation
        24: .comment,     // CommentVar
        26: .comment,     // Information
        27: .comment,     // Warning
        28: .comment,     // Alert
    ]
}
