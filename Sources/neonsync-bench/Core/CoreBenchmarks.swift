import NeonClient
import NeonCore
import NeonSystem

/// `neonsync-bench core [PART…]`: the core's micro-benchmarks, in this
/// process, against no server: the room reducer's throughput, parsing and
/// laying out a document, the client's cost per frame, and what
/// highlighting adds. They are benchmarks, not load, and print lines of
/// figures of their own; they live in neonsync-bench so that every
/// benchmark has one entry point. Wall-clock figures on this machine: build
/// in release mode.
enum CoreBenchmarks {
    /// Each part's name and what it prints.
    static let parts: [(name: String, run: @Sendable () -> [String])] = [
        ("reducer", { runReducerBenchmark() }),
        ("layout", { runLayoutBenchmark() }),
        ("render", { runRenderBenchmark() }),
        ("highlight", { runHighlightBenchmark() }),
    ]

    /// Runs the parts named in `arguments` (every part when none is), each
    /// printed as it ends; 2 for a name that is no part.
    static func run(_ arguments: [String], as program: String) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(BenchHelp.usage(program: program))
            return 0
        }
        let names = parts.map(\.name)
        if let unknown = arguments.first(where: { !names.contains($0) }) {
            let hint = Suggestion.sentence(for: unknown, among: names).map { " (\($0))" } ?? ""
            return NeonError.usage("unknown part \(unknown)\(hint); choose from \(names.joined(separator: ", ")), or none for all")
                .at("core").report(as: program)
        }
        print("NeonSync core benchmark (release build expected; wall-clock figures on this machine)")
        for part in parts where arguments.isEmpty || arguments.contains(part.name) {
            for line in part.run() { print(line) }
        }
        return 0
    }
}
