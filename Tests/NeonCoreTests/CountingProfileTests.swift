import Foundation
import Testing
@testable import NeonCore

@Suite("Counting profiles")
struct CountingProfileTests {
    @Test("each profile has its platform's default limit", arguments: [
        (CountingProfile.graphemes, 280), (.twitter, 280), (.mastodon, 500), (.bluesky, 300),
    ])
    func defaultLimits(profile: CountingProfile, limit: Int) {
        #expect(profile.defaultLimit == limit)
    }

    @Test("every summary names its profile's limit")
    func summaries() {
        for profile in CountingProfile.allCases {
            #expect(profile.summary.contains(String(profile.defaultLimit)))
        }
        #expect(Set(CountingProfile.allCases.map(\.summary)).count == CountingProfile.allCases.count)
    }

    @Test("profiles encode as their names")
    func codable() throws {
        let data = try JSONEncoder().encode(CountingProfile.allCases)
        #expect(String(decoding: data, as: UTF8.self) == #"["graphemes","twitter","mastodon","bluesky"]"#)
        #expect(try JSONDecoder().decode(CountingProfile.self, from: Data(#""mastodon""#.utf8)) == .mastodon)
    }

    @Test("graphemes and bluesky count user-perceived characters", arguments: [
        ("", 0), ("hello", 5), ("cafe\u{301}", 4), ("日本語", 3),
        ("👨‍👩‍👧‍👦", 1), ("🇯🇵", 1), ("👍🏽", 1), ("see https://example.com/a/b", 27),
    ])
    func graphemes(text: String, count: Int) {
        #expect(CountingProfile.graphemes.count(text) == count)
        #expect(CountingProfile.bluesky.count(text) == count)
    }

    @Test("twitter weighs Latin and general punctuation 1 and other characters 2", arguments: [
        ("hello", 5), ("日本語", 6), ("Hi 世界", 7), ("\u{201C}quoted\u{201D}\u{2014}", 9),
        ("\u{2026}", 2), ("Привет", 6), ("", 0),
    ])
    func twitterWeights(text: String, count: Int) {
        #expect(CountingProfile.twitter.count(text) == count)
    }

    @Test("twitter counts composed characters once, after NFC")
    func twitterNormalizes() {
        #expect(CountingProfile.twitter.count("cafe\u{301}") == 4)
        #expect(CountingProfile.twitter.count("\u{1100}\u{1161}\u{11A8}") == 2)
    }

    @Test("twitter counts every emoji sequence as 2", arguments: [
        "😷", "👍🏽", "❤️", "©️", "#️⃣", "1⃣", "🇯🇵", "👨‍👩‍👧‍👦", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
    ])
    func twitterEmoji(emoji: String) {
        #expect(CountingProfile.twitter.count(emoji) == 2)
    }

    @Test("twitter counts © and digits as text unless they are emoji")
    func twitterTextLookalikes() {
        #expect(CountingProfile.twitter.count("©") == 1)
        #expect(CountingProfile.twitter.count("#1") == 2)
    }

    @Test("twitter counts each URL as 23, with or without protocol", arguments: [
        ("read https://example.com/a/very/long/path/indeed", 28),
        ("see example.com", 27),
        ("Go to https://example.com/path.", 30),
        ("http://t.co/abc's", 25),
        ("me@example.com", 14),
        ("https://a.com https://b.org", 47),
    ])
    func twitterURLs(text: String, count: Int) {
        #expect(CountingProfile.twitter.count(text) == count)
    }

    @Test("mastodon counts graphemes and each http(s) URL as 23", arguments: [
        ("https://example.com/a/very/long/path/indeed", 23),
        ("example.com", 11),
        ("see https://example.com 👨‍👩‍👧‍👦", 29),
        ("日本 https://example.com", 26),
        ("toot", 4),
    ])
    func mastodon(text: String, count: Int) {
        #expect(CountingProfile.mastodon.count(text) == count)
    }

    @Test("punycode matches RFC 3492 and keeps ASCII labels as they are")
    func punycode() {
        #expect(Punycode.encode(Array("bücher".unicodeScalars)) == "bcher-kva")
        #expect(Punycode.encode(Array("そのスピードで".unicodeScalars)) == "d9juau41awczczp")
        #expect(Punycode.toASCII("münchen".unicodeScalars) == "xn--mnchen-3ya")
        #expect(Punycode.toASCII("Example".unicodeScalars) == "Example")
    }
}
