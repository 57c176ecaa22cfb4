/// The connection as a screen shows it.
public enum ConnectionState: Equatable, Sendable {
    case connecting
    case joined
    case closed(String)
}
