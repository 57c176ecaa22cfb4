import NeonCore

/// `--server` (or `NEONSYNC_SERVER`): one URL, or a comma-separated
/// failover list. Each entry is checked by the caller's URL parser; a
/// single URL keeps that parser's sentence unchanged, a list names the
/// entry that is wrong and what to write instead.
extension ServerList {
    /// Splits `text` at commas and parses each entry with `address`.
    /// Throws a sentence naming the flag, the entry and the fix for an
    /// empty entry ("a,,b", a trailing comma) or one `address` refuses.
    public static func parse(_ text: String, flag: String = "--server",
                             address: (String) throws -> Address) throws(NeonError) -> ServerList {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard entries.count > 1 else {
            do {
                return ServerList(try address(text))
            } catch {
                throw NeonError(error).at("\(flag) \(text)").exiting(with: NeonError.usageStatus)
            }
        }
        var parsed: [Address] = []
        for (offset, entry) in entries.enumerated() {
            let which = "entry \(offset + 1) of \(entries.count)"
            guard !entry.isEmpty else {
                throw NeonError.usage("\(which) is empty; separate the server URLs with single commas and no comma at either end, e.g. \(flag) \(example)")
                    .at("\(flag) \(text)")
            }
            do {
                parsed.append(try address(entry))
            } catch {
                throw NeonError(error).at("\(which) is not a server URL").at("\(flag) \(text)")
                    .advising("write each entry as ws://HOST:PORT/, wss://HOST:PORT/ or unix:PATH, separated by commas without spaces, e.g. \(flag) \(example)")
                    .exiting(with: NeonError.usageStatus)
            }
        }
        return ServerList(parsed[0], Array(parsed.dropFirst()))
    }

    /// A well-formed failover list for the error sentences.
    static var example: String { "ws://sync-a.example:7681/,ws://sync-b.example:7681/" }
}
