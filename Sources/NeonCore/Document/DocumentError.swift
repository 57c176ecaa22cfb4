/// Why a document's text could not be read, in words that name the problem
/// and where it is ("catalog entry 3 of type \"Birds\" has no \"name\" string").
///
/// Only catalogs can fail: any text is a valid Markdown or plain-text
/// document. The message does not name the file; callers add that.
public struct DocumentError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
