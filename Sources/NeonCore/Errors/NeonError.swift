/// The one shape of an error NeonSync shows a person (as Hummingbird's
/// `HTTPError` is the one shape of an HTTP failure): a sentence that says
/// what is wrong and what to do about it, the places it concerns (a flag, a
/// file, a server; outermost first), and the status a command exits with
/// when this error is why it ends.
///
/// An error gets its places as it travels up, with `at(_:)`, never by
/// pasting one error's text into another's. `neonsync` and `neonsyncd`
/// print every error they end with the same way (NeonSystem's
/// `NeonError.report(as:)`):
///
///     neonsyncd: --secret-file: the secret file /etc/x can be read by its group (mode 640); run chmod 600 /etc/x …
///
/// Errors that carry more than a sentence keep their own types, so code can
/// act on them (a wire code, an OT component, a transport failure); each is
/// a sentence too, and becomes a `NeonError` with `init(_:)` where it reaches
/// a person.
public struct NeonError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and, where something can be done, what to do.
    public let sentence: String
    /// Where it happened, outermost first: `["--secret-file"]`,
    /// `["--server ws://h:1/"]`, `["samples/guide.md", "catalog entry 3"]`.
    public private(set) var places: [String]
    /// What to do, when the place that knows it is not the one that failed
    /// (`write each entry as ws://HOST:PORT/ …`); said after the sentence.
    public private(set) var advice: String?
    /// The exit status of a command that ends with this error: 1 (could not
    /// do what was asked) unless it says otherwise; 2 is bad usage.
    public private(set) var exitStatus: Int32

    /// The status of bad usage: a flag, a value, a file named on the
    /// command line.
    public static let usageStatus: Int32 = 2

    public init(_ sentence: String, exitStatus: Int32 = 1) {
        self.sentence = sentence
        self.places = []
        self.advice = nil
        self.exitStatus = exitStatus
    }

    /// Any error as a `NeonError`: one is kept whole (its places and
    /// status), any other becomes its description, which in this project
    /// is a sentence.
    public init(_ error: any Error) {
        if let error = error as? NeonError {
            self = error
        } else {
            self.init(String(describing: error))
        }
    }

    /// A bad-usage error (exit status 2).
    public static func usage(_ sentence: String) -> NeonError {
        NeonError(sentence, exitStatus: usageStatus)
    }

    /// The same error at `place`, outside the places it already has.
    public func at(_ place: String) -> NeonError {
        var error = self
        error.places.insert(place, at: 0)
        return error
    }

    /// The same error, with what to do about it said after it.
    public func advising(_ advice: String) -> NeonError {
        var error = self
        error.advice = error.advice.map { $0 + "; " + advice } ?? advice
        return error
    }

    /// The same error, ending its command with `status`.
    public func exiting(with status: Int32) -> NeonError {
        var error = self
        error.exitStatus = status
        return error
    }

    /// The places, the sentence and the advice:
    /// `--server a,b: entry 2 of 2: … ; write each entry as …`.
    public var description: String {
        (places + [sentence]).joined(separator: ": ") + (advice.map { "; " + $0 } ?? "")
    }
}
