import NeonTransportCore

/// A plain HTTP request that reached the WebSocket port without asking for
/// an upgrade (for example `GET /healthz`).
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `PATCH`, or `OTHER`.
    public var method: String
    /// The URI path, without the query, e.g. `/metrics`.
    public var path: String
    /// The query string without the leading `?`; empty when none.
    public var query: String

    public init(method: String, path: String, query: String = "") {
        self.method = method
        self.path = path
        self.query = query
    }
}

/// The answer to an ``HTTPRequest``: status, content type and body. The
/// server adds `Content-Length` and handles keep-alive.
public struct HTTPResponse: Sendable, Equatable {
    /// Status code, e.g. 200 or 404.
    public var status: Int
    /// `Content-Type` header value.
    public var contentType: String
    /// Body bytes (not sent for `HEAD`).
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    /// `404 not found`, the answer for paths nobody serves.
    public static let notFound = HTTPResponse.text("not found\n", status: 404)
}
