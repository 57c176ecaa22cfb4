// libFuzzer's entry points for every target in fuzz/: scripts/fuzz.sh
// compiles them with the product files they test into one binary and picks
// the target with NEON_FUZZ_TARGET (messages, images, entries, markdown,
// tokens, headers, pictures, screens). With NEON_FUZZ_SEEDS set, a target that makes its own
// seeds writes them there and the process ends before fuzzing.

import Foundation

private let target = ProcessInfo.processInfo.environment["NEON_FUZZ_TARGET"] ?? ""

private let targets: [String: (UnsafePointer<UInt8>, Int) -> Void] = [
    "messages": fuzzMessages, "images": fuzzImages, "entries": fuzzEntries,
    "markdown": fuzzMarkdown, "tokens": fuzzTokens, "headers": fuzzHeaders, "pictures": fuzzPictures,
    "screens": fuzzScreens,
]

private let seeders: [String: () -> [[UInt8]]] = [
    "images": imageSeeds, "entries": entrySeeds, "tokens": tokenSeeds, "pictures": pictureSeeds,
]

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    guard targets[target] != nil else {
        FileHandle.standardError.write(Data("set NEON_FUZZ_TARGET to one of: \(targets.keys.sorted().joined(separator: ", "))\n".utf8))
        exit(2)
    }
    if let seeder = seeders[target] { writeSeedsIfAsked(seeder) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    targets[target]!(data, size)
    return 0
}
