import Glibc
import NeonCore

// The core and client benchmark: reducer throughput, document layout time and
// the client's frame cost. Build in release mode:
//   swift run -c release neonsync-bench-core [reducer|layout|render|highlight]...
let chosen = Set(CommandLine.arguments.dropFirst())
let all = ["reducer", "layout", "render", "highlight"]
if let unknown = chosen.first(where: { !all.contains($0) }) {
    print("neonsync-bench-core: unknown part \(unknown); choose from \(all.joined(separator: ", ")) or none for all")
    exit(2)
}
func runs(_ part: String) -> Bool { chosen.isEmpty || chosen.contains(part) }
print("NeonSync core benchmark (release build expected; wall-clock figures on this machine)")
if runs("reducer") { for line in runReducerBenchmark() { print(line) } }
if runs("layout") { for line in runLayoutBenchmark() { print(line) } }
if runs("render") { for line in runRenderBenchmark() { print(line) } }
if runs("highlight") { for line in runHighlightBenchmark() { print(line) } }
