import Foundation
import NeonCore
import NeonTestSupport
import NeonTransportCore

/// Checks log lines against NeonCore's `LogEvent`, the schema's single
/// definition (docs/LOGS.md is checked against it too, below).
package enum LogSchema {
    /// Every problem of one log line against its event's definition; empty
    /// when it fits.
    package static func problems(of line: String) -> [String] {
        guard let object = ServerProcess.json(line) else { return ["not a JSON object: \(line)"] }
        guard let event = object["event"] as? String else { return ["no event: \(line)"] }
        guard let schema = LogEvent.named(event) else { return ["unknown event \(event): \(line)"] }
        var problems: [String] = []
        let ts = object["ts"] as? String ?? ""
        if ts.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) == nil {
            problems.append("ts \(ts) is not RFC 3339 UTC with milliseconds")
        }
        let level = (object["level"] as? String).flatMap(LogRecord.Level.init(rawValue:))
        if level.map({ !schema.levels.contains($0) }) ?? true {
            problems.append("level \(object["level"] ?? "none") is not one of \(schema.levels.map(\.rawValue).sorted())")
        }
        for (key, presence) in [("room", schema.room), ("client", schema.client)] {
            let value = object[key]
            switch presence {
            case .required where !(value is String): problems.append("\(key) missing or not a string")
            case .optional where value != nil && !(value is String): problems.append("\(key) is not a string")
            case .absent where value != nil: problems.append("\(key) should be absent")
            default: break
            }
        }
        for field in schema.fields {
            let value = object[field.key]
            if value == nil {
                if !field.isOptional { problems.append("field \(field.key) missing") }
            } else if LoggedLine.value(value, as: field.kind) == nil {
                problems.append("field \(field.key) is not \(field.kind.rawValue)")
            }
        }
        if let node = object["node"], !(node is String) { problems.append("node is not a string") }
        let known = Set(schema.fields.map(\.key)).union(LogEvent.common.map(\.key))
        for key in object.keys where !known.contains(key) {
            problems.append("unknown field \(key)")
        }
        return problems.map { "\(event): \($0) in \(line)" }
    }
}
