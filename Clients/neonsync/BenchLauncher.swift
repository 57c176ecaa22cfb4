import Glibc
import NeonClient
import NeonCore
import NeonSystem

/// `neonsync bench …`: the load generator is a program of its own,
/// neonsync-bench (Sources/NeonLoad, Sources/neonsync-bench), so none of it
/// is in this client. neonsync runs it in its own place (execv), under the
/// name "neonsync bench", with the arguments after `bench`: its output,
/// its errors and its exit status are the command's.
enum BenchLauncher {
    /// Its file name.
    static let fileName = "neonsync-bench"

    /// Where it is looked for, first found first: beside this executable
    /// (`swift build` makes both in .build/debug or .build/release), then in
    /// ../libexec/neonsync (/usr/libexec/neonsync for /usr/bin/neonsync,
    /// where the neonsync-bench package puts it).
    static func places(executable: String? = Companion.executablePath()) -> [String] {
        guard let executable else { return [] }
        return Companion.places(of: fileName, beside: executable, orIn: "libexec/neonsync")
    }

    /// Replaces this process with neonsync-bench given `arguments`; returns
    /// only when it cannot, with the sentence that says why.
    static func run(_ arguments: [String]) -> NeonError {
        let places = places()
        guard let path = places.first(where: { access($0, X_OK) == 0 }) else {
            return NeonError("neonsync-bench, which runs the benchmarks, is not installed: looked for "
                + (places.isEmpty ? "it beside this executable, whose path is unknown" : places.joined(separator: " and ")))
                .advising("build it beside neonsync (swift build --product neonsync-bench), or install the neonsync-bench package")
        }
        let argv = ([BenchHelp.launchedName] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        return NeonError("cannot run \(path): \(reason)")
    }
}
