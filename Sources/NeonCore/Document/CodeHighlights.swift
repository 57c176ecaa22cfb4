/// What a token of highlighted code is, which a theme gives a style: the
/// classes a highlighting library hands out, folded to the ones a reader
/// tells apart.
public enum CodeClass: UInt8, CaseIterable, Hashable, Sendable {
    /// Keywords and control flow (`func`, `if`, `return`).
    case keyword
    /// Data types (`Int`, `char`).
    case type
    /// String and character literals.
    case string
    /// Escapes inside strings (`\n`), special strings such as regular
    /// expressions.
    case escape
    /// Numbers in any base.
    case number
    /// Named constants (`true`, `nil`, `None`).
    case constant
    /// Comments and documentation.
    case comment
    /// Function names.
    case function
    /// Built-in functions and classes of the language or a well-known library.
    case builtin
    /// Preprocessor lines, imports and includes.
    case preprocessor
    /// Variables where the language marks them (`$name`).
    case variable
    /// Attributes and annotations (`@MainActor`, `#[derive]`).
    case attribute
}

/// A token of a code block: UTF-8 offsets in the block's text and its class.
public struct CodeRun: Equatable, Hashable, Sendable {
    public let bytes: Range<Int>
    public let kind: CodeClass

    public init(bytes: Range<Int>, kind: CodeClass) {
        self.bytes = bytes
        self.kind = kind
    }
}

/// The highlighted code of one document: each highlighted code block's
/// tokens, in order and not overlapping, by block index. Made outside the
/// pure core (the library reads its definitions from disk) once per
/// document, and handed to the layout as data: highlighting never changes a
/// row's text, so anchors, search and following are the same with it or
/// without it.
public struct CodeHighlights: Equatable, Sendable {
    public var runs: [Int: [CodeRun]]

    public init(runs: [Int: [CodeRun]] = [:]) {
        self.runs = runs
    }

    public static let none = CodeHighlights()

    public var isEmpty: Bool { runs.isEmpty }

    /// The code blocks of `document` a highlighter is asked about: block
    /// index, the fence's language and the code.
    public static func requests(in document: Document) -> [(block: Int, language: String, code: String)] {
        document.blocks.indices.compactMap { index in
            guard case .codeBlock(let language?) = document.blocks[index].kind, !language.isEmpty else { return nil }
            return (index, language, document.blocks[index].text)
        }
    }
}
