import Glibc
import NeonClient
import NeonCore
import NeonSystem

/// `neonsync-bench SCENARIO …` (and `neonsync bench SCENARIO …`, which runs
/// it): options → the scenario → a table and a JSON line on standard
/// output.
package enum BenchCommand {
    /// Runs the command line `arguments` (after the program's name) as
    /// `program` names itself in its output and its errors; the exit status.
    package static func run(_ arguments: [String], as program: String) -> Int32 {
        do {
            guard let options = try BenchOptions.parse(arguments, as: program) else {
                print(BenchHelp.usage(program: program))
                return 0
            }
            return try run(options, as: program)
        } catch {
            return error.report(as: program)
        }
    }

    /// Runs the scenario and prints its table and JSON line; 1 when
    /// something went wrong along the way (a connection failed). The error
    /// it ends with otherwise: 2 for bad usage, 1 when the run could not
    /// finish.
    static func run(_ options: BenchOptions, as program: String) throws(NeonError) -> Int32 {
        if options.tokenOnCommandLine {
            StandardStreams.error(TokenFile.commandLineWarning)
        }
        let display = BenchDisplay(scenario: options.scenario.rawValue, program: program)
        let result: LoadResult
        do throws(NeonError) {
            let scenario = try options.scenario.load.init(options, display: display)
            do throws(NeonError) {
                result = try scenario.run()
            } catch {
                throw error.at(options.scenario.rawValue)
            }
        } catch {
            display.finish()
            throw error
        }
        display.finish()
        print("\(program) \(options.scenario.rawValue) → \(result.target)")
        print(result.report.table)
        print(result.report.json)
        return result.problem == nil ? 0 : 1
    }
}
