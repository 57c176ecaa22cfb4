import CCrashReport
import Glibc
import NeonCore
import NeonTransport

/// No silent death: if neonsync ever dies of a signal from its own code (a
/// failed Swift runtime check traps with SIGILL or SIGTRAP; SIGSEGV, SIGBUS,
/// SIGFPE, SIGABRT), it restores the terminal, writes a report with the
/// backtrace, the version and the command into `$XDG_STATE_HOME/neonsync/`
/// (`~/.local/state/neonsync/` by default), says where it is in one sentence
/// on standard error, and dies of the same signal (CLIENT.md, "When
/// neonsync crashes"). The handler is C (`CCrashReport`): it may only call
/// async-signal-safe functions, so what it writes is prepared here, once.
enum CrashReport {
    /// The directory reports go to: `$XDG_STATE_HOME/neonsync` (an
    /// absolute path, as the XDG base directory specification asks), else
    /// `$HOME/.local/state/neonsync`; nil without either.
    static func directory(stateHome: String?, home: String?) -> String? {
        if let stateHome, stateHome.hasPrefix("/") { return stateHome + "/neonsync" }
        guard let home, home.hasPrefix("/") else { return nil }
        return home + "/.local/state/neonsync"
    }

    /// The command as the report gives it: a `--token` value is left out
    /// (it admits to the room), so the report can be sent to anyone.
    static func command(_ arguments: [String]) -> String {
        var shown: [String] = []
        var hideNext = false
        for argument in arguments {
            if hideNext {
                shown.append("(hidden)")
                hideNext = false
            } else if argument == "--token" {
                shown.append(argument)
                hideNext = true
            } else if argument.hasPrefix("--token=") {
                shown.append("--token=(hidden)")
            } else {
                shown.append(argument)
            }
        }
        return (["neonsync"] + shown).joined(separator: " ")
    }

    /// The report's first lines: what ran, which build, which process.
    static func header(arguments: [String], executable: String, pid: Int32) -> String {
        """
        neonsync crash report
        \(BuildStamp.versionText(program: "neonsync", libwebsockets: WebSocketLibrary.version))
        command: \(command(arguments))
        executable: \(executable)
        pid: \(pid)

        """
    }

    /// Installs the handlers for this process, with `arguments` (those
    /// after the program's name) named in the report. The directory is
    /// made (mode 700) when missing; when it cannot be, a crash still
    /// restores the terminal and says so.
    static func install(arguments: [String]) {
        let env = ProcessEnvironment()
        let path = directory(stateHome: env["XDG_STATE_HOME"], home: env["HOME"])
        var descriptor: Int32 = -1
        if let path {
            makeDirectories(path)
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        var link = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &link, link.count - 1)
        let executable = length > 0 ? String(decoding: link[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
        _ = neon_crash_install(descriptor, path ?? "", header(arguments: arguments, executable: executable, pid: getpid()),
                               "neonsync")
    }

    /// `mkdir -p` of `path`, each new directory private to its user.
    private static func makeDirectories(_ path: String) {
        var partial = ""
        for part in path.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, 0o700) != 0, errno != EEXIST { return }
        }
    }
}
