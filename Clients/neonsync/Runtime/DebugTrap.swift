#if DEBUG
/// For the crash report's test only, and only in a debug build (release
/// builds, which users run, have no such code): with
/// `NEONSYNC_DEBUG_TRAP=key` in the environment, the first key a screen
/// reads fails Swift's bounds check as a real bug would, so that a test can
/// watch a real client die of SIGILL and leave its report (CLIENT.md).
enum DebugTrap {
    static let armed = ProcessEnvironment()["NEONSYNC_DEBUG_TRAP"] == "key"

    static func keyRead() {
        guard armed else { return }
        let none: [Int] = []
        _ = none[none.count]
    }
}
#endif
