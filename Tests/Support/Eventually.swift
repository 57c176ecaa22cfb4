/// Polls `condition` every 5 ms until it holds or `timeout` passes.
public func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

extension RunningProgram {
    /// The first line of the program's standard error that `match` accepts,
    /// waiting up to `timeout` for it; nil when none came.
    public func errorLine(timeout: Duration = .seconds(10), _ match: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let hit = errorLines.first(where: match) { return hit }
            try? await Task.sleep(for: .milliseconds(20))
        } while ContinuousClock.now < deadline
        return nil
    }
}
