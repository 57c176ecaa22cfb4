import NeonTUI

/// What sets a binding off: a key as the terminal decodes it, or input
/// that is no one key.
public enum BindingInput: Hashable, Sendable {
    case key(Key)
    /// Any printable character no other binding of the map takes.
    case typing
    case paste
    case mouse
}

/// One thing a screen does and the input that does it, with the line its
/// key list shows (bubbles' `key.NewBinding(key.WithKeys(…),
/// key.WithHelp(…))`). Bindings that read as one line ("j k ↓ ↑ scroll a
/// row") share it: the list shows it once, where the first of them stands.
public struct KeyBinding<Action: Hashable & Sendable>: Sendable {
    public let inputs: [BindingInput]
    public let action: Action
    public let help: HelpOverlay.Line

    /// `action` on any of `keys`, listed as `help`.
    public init(_ keys: [Key], _ action: Action, help: HelpOverlay.Line) {
        self.init(inputs: keys.map(BindingInput.key), action, help: help)
    }

    /// `action` on any of `inputs`, listed as `help`.
    public init(inputs: [BindingInput], _ action: Action, help: HelpOverlay.Line) {
        self.inputs = inputs
        self.action = action
        self.help = help
    }
}

/// A screen's bindings in one of its modes: what an input does is looked up
/// here, and the key list is made from the same bindings, so the two cannot
/// drift apart.
public struct KeyMap<Action: Hashable & Sendable>: Sendable {
    public let bindings: [KeyBinding<Action>]
    private let actions: [BindingInput: Action]

    public init(_ bindings: [KeyBinding<Action>]) {
        self.bindings = bindings
        var actions: [BindingInput: Action] = [:]
        for binding in bindings {
            for input in binding.inputs where actions[input] == nil { actions[input] = binding.action }
        }
        self.actions = actions
    }

    /// What `event` does here; nil when no binding takes it.
    public func action(for event: InputEvent) -> Action? {
        switch event {
        case let .key(key):
            if let action = actions[.key(key)] { return action }
            guard case .character = key else { return nil }
            return actions[.typing]
        case .paste: return actions[.paste]
        case .mouse: return actions[.mouse]
        }
    }

    /// What `key` does here; nil when no binding takes it.
    public func action(for key: Key) -> Action? {
        action(for: .key(key))
    }

    /// The key list's lines: each binding's help once, in the bindings'
    /// order.
    public var helpLines: [HelpOverlay.Line] {
        bindings.map(\.help).uniqued()
    }

    /// Inputs that more than one binding claims (the first one wins): none
    /// in a map that means what it says.
    public var repeatedInputs: [BindingInput] {
        var seen: Set<BindingInput> = []
        return bindings.flatMap(\.inputs).filter { !seen.insert($0).inserted }
    }
}

extension Array where Element == HelpOverlay.Line {
    /// The lines in order, each once.
    func uniqued() -> [HelpOverlay.Line] {
        reduce(into: []) { lines, line in
            if !lines.contains(line) { lines.append(line) }
        }
    }
}
