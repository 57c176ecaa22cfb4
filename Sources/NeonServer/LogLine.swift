import Glibc
import NeonCore

/// Formats a log record as one JSON object: ts, level, event, room, client,
/// then the record's fields in order.
enum LogLine {
    static func render(_ record: LogRecord, at wallClock: timespec, includeContent: Bool = false,
                       node: String? = nil) -> String {
        var out = "{\"ts\":\""
        out.append(timestamp(wallClock))
        out.append("\",\"level\":\"")
        out.append(record.level.rawValue)
        out.append("\",\"event\":")
        JSONText.appendString(record.event, to: &out)
        if let node {
            out.append(",\"node\":")
            JSONText.appendString(node, to: &out)
        }
        if let room = record.room {
            out.append(",\"room\":")
            JSONText.appendString(room, to: &out)
        }
        if let client = record.client {
            out.append(",\"client\":")
            JSONText.appendString(client.rawValue, to: &out)
        }
        for field in includeContent ? record.fields + record.content : record.fields {
            out.append(",")
            JSONText.appendString(field.key, to: &out)
            out.append(":")
            switch field.value {
            case let .string(s): JSONText.appendString(s, to: &out)
            case let .int(i): out.append(String(i))
            case let .double(d): JSONText.appendNumber(d, to: &out)
            case let .bool(b): out.append(b ? "true" : "false")
            }
        }
        out.append("}\n")
        return out
    }

    /// RFC 3339 UTC with milliseconds, e.g. 2026-11-29T21:27:27.123Z.
    static func timestamp(_ t: timespec) -> String {
        var seconds = t.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(width - s.count, 0)) + s
        }
        let ms = Int32(t.tv_nsec / 1_000_000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(ms, 3))Z"
    }
}
