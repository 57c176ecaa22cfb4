import NeonTransport
import Testing

/// Inputs scripts/fuzz.sh (target `headers`) found, replayed through the
/// same checks: an `Origin` header value through `OriginPolicy.normalized`
/// and a policy's `allows`.
@Suite("Origin headers the fuzzer found")
struct OriginFuzzRegressionTests {
    @Test("a host with a colon outside brackets is not an origin, whatever its port")
    func colonInHost() {
        for origin in ["HTTPS://APP.EXAMPLE.COM0.7:XBsZSBub25jZr=:443", "http://a:b:80", "http://a:b:8080", "https://a:b"] {
            #expect(OriginPolicy.normalized(origin) == nil, "\(origin)")
            #expect(OriginPolicy(allowing: [origin]).allowed.isEmpty, "\(origin)")
            #expect(!OriginPolicy(allowing: ["https://app.example.com"]).allows(origin), "\(origin)")
        }
    }

    @Test("a normalized origin normalizes to itself")
    func normalizedIsStable() {
        for origin in ["HTTPS://APP.EXAMPLE.COM:443/", "http://localhost:8080", "https://[::1]:443", "http://[2001:DB8::1]:80", "null"] {
            let normalized = OriginPolicy.normalized(origin)
            #expect(normalized != nil, "\(origin)")
            #expect(normalized.flatMap(OriginPolicy.normalized) == normalized, "\(origin)")
        }
    }
}
