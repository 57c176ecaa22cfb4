import NeonTUI

/// What a key does while a help overlay is open: the paging keys of `less`
/// scroll it, the mouse wheel too; any other key closes it.
public enum HelpScrolling: Equatable, Sendable {
    case scroll(by: Int)
    case top
    case bottom
    /// Nothing happens (a paste, a click).
    case stay
    case close

    /// The action of `event` over an overlay showing `page` lines at once.
    public init(_ event: InputEvent, page: Int) {
        let page = max(page - 1, 1)
        switch event {
        case .key(.character("j")), .key(.down), .key(.ctrl("n")), .key(.enter): self = .scroll(by: 1)
        case .key(.character("k")), .key(.up), .key(.ctrl("p")): self = .scroll(by: -1)
        case .key(.character(" ")), .key(.pageDown), .key(.ctrl("f")): self = .scroll(by: page)
        case .key(.character("b")), .key(.pageUp), .key(.ctrl("b")): self = .scroll(by: -page)
        case .key(.character("g")), .key(.home): self = .top
        case .key(.character("G")), .key(.end): self = .bottom
        case .key: self = .close
        case .mouse(let mouse) where mouse.action == .wheelDown: self = .scroll(by: 3)
        case .mouse(let mouse) where mouse.action == .wheelUp: self = .scroll(by: -3)
        case .mouse, .paste: self = .stay
        }
    }

    /// The overlay's first line after this action, from `scroll`, for an
    /// overlay whose last useful first line is `maximum`; nil when it closes.
    public func scroll(from scroll: Int, maximum: Int) -> Int? {
        let current = min(max(scroll, 0), max(maximum, 0))
        switch self {
        case let .scroll(by: rows): return min(max(current + rows, 0), max(maximum, 0))
        case .top: return 0
        case .bottom: return max(maximum, 0)
        case .stay: return current
        case .close: return nil
        }
    }
}
