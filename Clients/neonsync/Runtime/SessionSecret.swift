/// The `resume` secret of one run of the client: chosen once, sent with
/// every hello, so that after a reconnect the server replaces this client's
/// earlier connection instead of refusing it (a presenter whose server died
/// is the presenter again at once on another).
enum SessionSecret {
    /// 32 random hexadecimal digits (128 bits).
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0 ..< 32).map { _ in digits[Int(generator.next() % 16)] })
    }
}
