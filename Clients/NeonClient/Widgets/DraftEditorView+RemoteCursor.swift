import NeonTUI

extension DraftEditorView {
    /// Someone else's cursor in the draft, drawn as a cursor cell over the
    /// character it is on (or a blank cell at a line's end) in their colour,
    /// underlined (bold and underlined without colour), and listed by name
    /// in the footer, its initial in the same look.
    public struct RemoteCursor: Equatable, Sendable {
        /// The name shown in the footer.
        public var name: String
        /// Where it is in the text, in Unicode scalars.
        public var position: Int

        public init(name: String, position: Int) {
            self.name = name
            self.position = position
        }

        /// The first character of the name (drawn in the cursor's look in the
        /// footer), or `?` for an empty name.
        public var initial: Character { name.first ?? "?" }

        /// The cursor's look: a block in a colour picked from the name (so
        /// every terminal shows a person alike), or bold underline without
        /// colour.
        func style(in theme: Theme) -> Style {
            guard theme.usesColor else { return Style(bold: true, underline: true) }
            let pick = name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
            let color = Self.colors[pick % Self.colors.count]
            return Style(fg: theme.background.bg, bg: color, underline: true)
        }

        /// Colours for other people's cursors, clear of the ring's blue,
        /// yellow and red.
        static let colors: [Color] = [.magenta, .cyan, .green, .brightMagenta, .brightCyan, .brightGreen]
    }
}
