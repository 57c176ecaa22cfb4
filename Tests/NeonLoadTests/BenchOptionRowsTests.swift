import NeonClient
import NeonCore
@testable import NeonLoad
import Testing

/// neonsync-bench's flags: NeonClient's `BenchHelp.table` documents them,
/// `BenchReading.rows` says where each one's value goes.
@Suite("neonsync-bench's option rows")
struct BenchOptionRowsTests {
    @Test("every flag of the bench's help table has its row, in the same order, and no row is missing from the help")
    func everyFlagHasItsRow() {
        #expect(BenchReading.rows.map(\.spec) == BenchHelp.table)
    }

    @Test("a row stores its value where its key path says")
    func values() throws {
        let options = try #require(try BenchOptions.parse(["relay", "--connections", "20", "--senders", "2", "--rate=5",
                                                           "--window", "4", "--server-pid", "1,2", "--room", "r"], as: "b"))
        #expect(options.count == 20 && options.senders == 2 && options.rate == 5 && options.window == 4)
        #expect(options.serverPIDs == [1, 2] && options.room == "r")
    }

    @Test("a bad value or a flag of another scenario names the flag and what it allows")
    func refusals() {
        #expect(throws: NeonError.usage("--followers needs a whole number from 1 to 1000000, e.g. --followers 10")) {
            try BenchOptions.parse(["follow", "--followers", "0"], as: "b")
        }
        #expect(throws: NeonError.usage("--senders belongs to b relay; see b --help")) {
            try BenchOptions.parse(["follow", "--senders", "x"], as: "b")
        }
        #expect(throws: NeonError.usage("--server-pid 1,x is not a list of process ids; give PID or PID,PID,… (commas, no spaces), e.g. --server-pid $(pidof neonsyncd | tr ' ' ,)")) {
            try BenchOptions.parse(["relay", "--server-pid", "1,x"], as: "b")
        }
        #expect(throws: NeonError.usage("--senders (5) cannot exceed --connections (2)")) {
            try BenchOptions.parse(["relay", "--connections", "2", "--senders", "5"], as: "b")
        }
    }

    @Test("--help answers before the flags after it are read")
    func help() throws {
        #expect(try BenchOptions.parse(["relay", "--help", "--senders", "x"], as: "b") == nil)
    }
}
