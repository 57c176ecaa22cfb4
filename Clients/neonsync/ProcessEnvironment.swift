import Glibc
import NeonClient

/// Reads environment variables without Foundation.
struct ProcessEnvironment {
    subscript(name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let s = String(cString: value)
        return s.isEmpty ? nil : s
    }

    /// The terminal the draft's Ctrl-O copies through.
    var clipboardTerminal: ClipboardCopy.Terminal {
        ClipboardCopy.Terminal(term: self["TERM"], inTmux: self["TMUX"] != nil)
    }
}

extension LoginName {
    /// This user's login name: getlogin(), then $USER, then the password
    /// database's entry of this user (see `choose`).
    static func current() -> String {
        var candidates: [String?] = [getlogin().map { String(cString: $0) }, ProcessEnvironment()["USER"]]
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
            candidates.append(String(cString: name))
        }
        return choose(candidates)
    }
}
