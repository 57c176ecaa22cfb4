import NeonCore

// The core benchmark: reducer throughput and document layout time. Build in
// release mode: swift run -c release neonsync-bench-core
print("NeonCore benchmark (release build expected; numbers are wall-clock on this machine)")
for line in runReducerBenchmark() { print(line) }
for line in runLayoutBenchmark() { print(line) }
