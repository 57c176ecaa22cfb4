import Foundation

/// A line of a neonsyncd log read back (`replay`, `monitor`): the fields
/// every line has, and the event's own fields typed by its `LogEvent`
/// definition. A field of another type than the definition says reads as
/// absent; an event this build does not define keeps only the common fields.
public struct LoggedLine: Equatable, Sendable {
    public let ts: String
    public let level: LogRecord.Level
    public let event: String
    public let node: String?
    public let room: String?
    public let client: String?
    /// The event's own fields that are present, by key.
    public let values: [String: LogValue]

    /// The event's definition; nil for an event this build does not know.
    public var definition: LogEvent? { LogEvent.named(event) }

    /// Reads one line; nil when it is not a JSON object with a string `ts`,
    /// a known `level` and an `event`.
    public init?(json line: some StringProtocol) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
              let ts = object["ts"] as? String, let event = object["event"] as? String,
              let level = (object["level"] as? String).flatMap(LogRecord.Level.init(rawValue:)) else { return nil }
        self.ts = ts
        self.level = level
        self.event = event
        node = object["node"] as? String
        room = object["room"] as? String
        client = object["client"] as? String
        var values: [String: LogValue] = [:]
        for field in LogEvent.named(event)?.fields ?? [] {
            if let value = Self.value(object[field.key], as: field.kind) { values[field.key] = value }
        }
        self.values = values
    }

    public func string(_ key: String) -> String? {
        if case let .string(value)? = values[key] { value } else { nil }
    }

    public func int(_ key: String) -> Int? {
        if case let .int(value)? = values[key] { value } else { nil }
    }

    public func bool(_ key: String) -> Bool? {
        if case let .bool(value)? = values[key] { value } else { nil }
    }

    /// A JSON value as `kind`; nil when it is another type.
    public static func value(_ any: Any?, as kind: LogEvent.Kind) -> LogValue? {
        guard let any else { return nil }
        switch kind {
        case .string:
            return (any as? String).map(LogValue.string)
        case .bool:
            guard let number = any as? NSNumber, isBoolean(number) else { return nil }
            return .bool(number.boolValue)
        case .int:
            guard let number = any as? NSNumber, !isBoolean(number) else { return nil }
            let type = String(cString: number.objCType)
            return type == "d" || type == "f" ? nil : .int(number.intValue)
        }
    }

    /// JSONSerialization gives booleans as their own NSNumber class.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(describing: type(of: number)).contains("Boolean")
    }
}
