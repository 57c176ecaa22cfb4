import Foundation
import Testing
@testable import NeonCore

/// twitter-text's own conformance cases, read at run time from
/// `../shared/conformance/twitter-text` beside the package (their README:
/// never copy them into tests). Without that folder the tests are skipped,
/// with the reason in the test output; under CI (`CI=true`) a missing folder
/// is a failure.
@Suite("Counting profile conformance")
struct CountingProfileConformanceTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/conformance/twitter-text").standardized
    static let isPresent = FileManager.default.fileExists(atPath: folder.path)
    static let skipReason = Comment(rawValue: "SKIPPED: ../shared/conformance/twitter-text not found at \(folder.path)")
    static let underCI = ProcessInfo.processInfo.environment["CI"] == "true"

    @Test("under CI the twitter-text cases are there: a missing folder fails instead of skipping", .enabled(if: underCI))
    func presentUnderCI() {
        #expect(Self.isPresent, "CI=true and ../shared/conformance/twitter-text is missing at \(Self.folder.path): CI must run beside shared/")
    }

    struct WeightedCase: Decodable {
        struct Expected: Decodable { var weightedLength: Int }
        var description: String
        var text: String
        var expected: Expected
    }

    struct ExtractionCase<Expected: Decodable & Sendable>: Decodable {
        var description: String
        var text: String
        var expected: Expected
    }

    struct IndexedURL: Decodable, Sendable {
        var url: String
        var indices: [Int]
    }

    struct ExtractionSections: Decodable {
        var urls: [ExtractionCase<[String]>]
        var urls_with_indices: [ExtractionCase<[IndexedURL]>]
        var urls_with_directional_markers: [ExtractionCase<[IndexedURL]>]
    }

    static func load<T: Decodable>(_ file: String, as type: T.Type) throws -> T {
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        return try JSONDecoder().decode(T.self, from: data)
    }

    /// The v2 configuration the first section is written for: v3 without
    /// emoji parsing.
    static let withoutEmojiParsing: TwitterTextConfiguration = {
        var configuration = TwitterTextConfiguration.v3
        configuration.emojiParsingEnabled = false
        return configuration
    }()

    @Test("twitter counts every twitter-text weighted-length case", .enabled(if: isPresent, skipReason))
    func weightedLength() throws {
        let sections = try Self.load("weighted.json", as: [String: [WeightedCase]].self)
        let counters: [(section: String, count: (String) -> Int)] = [
            ("WeightedTweetsCounterTest", Self.withoutEmojiParsing.weightedLength(of:)),
            ("WeightedTweetsWithDiscountedEmojiCounterTest", CountingProfile.twitter.count),
            ("UnicodeDirectionalMarkerCounterTest", CountingProfile.twitter.count),
        ]
        #expect(Set(sections.keys) == Set(counters.map(\.section)), "weighted.json has sections this test does not run")
        var passed = 0, total = 0
        for (section, count) in counters {
            for testCase in sections[section] ?? [] {
                total += 1
                let got = count(testCase.text)
                if got == testCase.expected.weightedLength {
                    passed += 1
                } else {
                    Issue.record("\(section): \(testCase.description): expected \(testCase.expected.weightedLength), got \(got)")
                }
            }
        }
        print("twitter-text weighted conformance: \(passed)/\(total) passed")
        #expect(total > 0)
    }

    @Test("URL extraction finds what twitter-text's extract-urls cases expect", .enabled(if: isPresent, skipReason))
    func urlExtraction() throws {
        let sections = try Self.load("extract-urls.json", as: ExtractionSections.self)
        var passed = 0, total = 0
        func check(_ section: String, _ description: String, text: String, expected: [IndexedURL]?, urls: [String]) {
            let scalars = Array(text.unicodeScalars)
            let ranges = TwitterURLExtractor().urls(in: scalars)
            let found = ranges.map { String(String.UnicodeScalarView(scalars[$0])) }
            let foundIndices = ranges.map { [$0.lowerBound, $0.upperBound] }
            total += 1
            if found == urls, expected.map({ $0.map(\.indices) == foundIndices }) ?? true {
                passed += 1
            } else {
                Issue.record("\(section): \(description): expected \(expected.map { "\($0.map { ($0.url, $0.indices) })" } ?? "\(urls)"), got \(zip(found, foundIndices).map { $0 })")
            }
        }
        for testCase in sections.urls {
            check("urls", testCase.description, text: testCase.text, expected: nil, urls: testCase.expected)
        }
        let indexed = [
            ("urls_with_indices", sections.urls_with_indices),
            ("urls_with_directional_markers", sections.urls_with_directional_markers),
        ]
        for (section, cases) in indexed {
            for testCase in cases {
                check(section, testCase.description, text: testCase.text, expected: testCase.expected,
                      urls: testCase.expected.map(\.url))
            }
        }
        print("twitter-text URL extraction conformance: \(passed)/\(total) passed")
        #expect(total > 0)
    }
}
