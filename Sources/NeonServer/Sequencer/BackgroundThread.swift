import Foundation

/// Starts a named thread of the server's own (the store's committer, the
/// cluster's Redis writer and reader) that runs `body` until it returns.
func startBackgroundThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.start()
}
