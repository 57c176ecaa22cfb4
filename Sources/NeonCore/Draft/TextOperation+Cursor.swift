extension TextOperation {
    /// What is left of the component a `Cursor` is on.
    enum Piece {
        case retain(Int)
        case insert(Substring.UnicodeScalarView, length: Int)
        case delete(Int)
    }

    /// Walks an operation's components so compose and transform can consume
    /// them a few scalars at a time without re-walking inserted text.
    struct Cursor {
        private let components: [Component]
        private var nextIndex = 0
        /// The unconsumed rest of the current component; nil past the end.
        private(set) var piece: Piece?

        init(_ operation: TextOperation) {
            components = operation.components
            load()
        }

        /// Consumes the first `count` units of the current piece, which has
        /// at least that many, and returns the consumed scalars when the
        /// piece is an insert (an empty view otherwise).
        @discardableResult
        mutating func take(_ count: Int) -> Substring.UnicodeScalarView {
            switch piece {
            case .insert(let scalars, let length)? where length > count:
                let cut = scalars.index(scalars.startIndex, offsetBy: count)
                piece = .insert(scalars[cut...], length: length - count)
                return scalars[..<cut]
            case .insert(let scalars, _)?:
                load()
                return scalars
            case .retain(let length)? where length > count:
                piece = .retain(length - count)
            case .delete(let length)? where length > count:
                piece = .delete(length - count)
            case .retain?, .delete?, nil:
                load()
            }
            return Substring.UnicodeScalarView()
        }

        private mutating func load() {
            guard nextIndex < components.count else {
                piece = nil
                return
            }
            switch components[nextIndex] {
            case .retain(let count):
                piece = .retain(count)
            case .insert(let text):
                let scalars = Substring(text).unicodeScalars
                piece = .insert(scalars, length: scalars.count)
            case .delete(let count):
                piece = .delete(count)
            }
            nextIndex += 1
        }
    }

    /// Inserts scalars taken from a cursor.
    mutating func insert(_ scalars: Substring.UnicodeScalarView, scalarCount: Int) {
        insert(String(Substring(scalars)), scalarCount: scalarCount)
    }
}
