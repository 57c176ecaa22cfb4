import CCmarkGFM
import NeonLock

/// GitHub's CommonMark + GFM parser (cmark-gfm) with the table,
/// strikethrough, autolink and task-list extensions: a pure function from
/// Markdown text to a node tree, which `MarkdownReader` turns into blocks.
enum CmarkGFM {
    /// The extensions documents are parsed with.
    static let extensions = ["table", "strikethrough", "autolink", "tasklist"]

    /// cmark-gfm's version, e.g. "0.29.0.gfm.6".
    static let version = String(cString: neon_cmark_version())

    /// Registers the core extensions once, thread-safely (cmark-gfm's own
    /// registration is not).
    fileprivate static let registered: Void = cmark_gfm_core_extensions_ensure_registered()

    /// Parses `text` and hands the document node to `body`; the tree is
    /// freed when `body` returns.
    /// Held from a parser's creation to its release. cmark-gfm 0.29 keeps
    /// the inline parser's table of special characters in one process-wide
    /// array: attaching an extension adds its characters (`~` for
    /// strikethrough) and freeing a parser removes them, so a parser freed
    /// on one thread took `~` from another thread's parse in progress, and
    /// that document lost its strikethrough (found by the suite, which
    /// parses on many threads; the server parses on its service thread and
    /// on the committer thread that reads resting rooms back).
    fileprivate static let parsing = Locked(())

    static func withTree<Result>(of text: String, _ body: (OpaquePointer) -> Result) -> Result {
        _ = registered
        let root = parsing.withLock { _ in parse(text) }
        defer { cmark_node_free(root) }
        return body(root)
    }

    /// The document node of `text`; the caller frees it.
    private static func parse(_ text: String) -> OpaquePointer {
        guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else { fatalError("cmark-gfm could not allocate a parser") }
        for name in extensions {
            if let extensionPointer = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, extensionPointer)
            }
        }
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        let root = cmark_parser_finish(parser)
        cmark_parser_free(parser)
        guard let root else { fatalError("cmark-gfm returned no document") }
        return root
    }
}

/// For code beside NeonCore that drives cmark-gfm itself in the same
/// process (a test comparing with cmark's own output, a client's own
/// renderer): its parsers must not live while NeonCore's do (see
/// `CmarkGFM.parsing`), so it makes and frees them in here, where the core
/// extensions are also registered.
public enum CmarkGFMParsers {
    public static func exclusively<T: Sendable>(_ body: () -> T) -> T {
        CmarkGFM.exclusively(body)
    }
}

extension CmarkGFM {
    static func exclusively<T: Sendable>(_ body: () -> T) -> T {
        _ = registered
        return parsing.withLock { _ in body() }
    }
}

