import Glibc
import NeonClient
import NeonLoad

// neonsync-bench: every benchmark of NeonSync in one program. The load
// scenarios (NeonLoad) against servers and a cluster's Redis, and `core`,
// the core's micro-benchmarks in this process. `neonsync bench …` runs it
// under the name "neonsync bench", which its output and its errors use.
let arguments = Array(CommandLine.arguments.dropFirst())
let program = CommandLine.arguments.first == BenchHelp.launchedName ? BenchHelp.launchedName : "neonsync-bench"
if arguments.first == "core" {
    exit(CoreBenchmarks.run(Array(arguments.dropFirst()), as: program))
}
exit(BenchCommand.run(arguments, as: program))
