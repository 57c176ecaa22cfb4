/// How the next version of a document relates to it, block by block, so
/// that everyone keeps their place when the document changes while they
/// read it (docs/PROTOCOL.md, "New versions of a document").
///
/// Blocks are aligned by their kind and text: a block whose text is
/// unchanged and still in order **survives** and keeps its anchor (its new
/// index, the same offset). The blocks between two survivors form a gap:
/// its old blocks were edited, moved or removed, its new blocks are what
/// stands there now. A place in a gap goes to the block at the same
/// position among the gap's new blocks (at the same words when they are
/// still there), or, when the gap lost all its blocks, to the next
/// surviving block: the nearest surviving text. A pointer follows its text
/// wherever it is now, nearest first, and is gone when its text is.
///
/// The alignment is patience diff over the blocks (common ends first, then
/// blocks that occur once on each side, in order, recursively): O(n log n),
/// so a server can carry a room's places on its service thread.
public struct VersionMap: Sendable {
    public let old: Document
    public let new: Document
    /// For each old block, its block in the new version when it survived.
    let survivors: [Int?]
    /// For each old block, the new blocks of the gap it is in (empty for a
    /// survivor's own block: `survivors` says where it went).
    let gapNew: [Range<Int>]
    /// For each old block, the first old block of its gap.
    let gapStart: [Int]

    public init(from old: Document, to new: Document) {
        self.old = old
        self.new = new
        let survivors = Self.align(old.blocks.map(Key.init), new.blocks.map(Key.init))
        var gapNew: [Range<Int>] = []
        var gapStart: [Int] = []
        gapNew.reserveCapacity(old.blocks.count)
        gapStart.reserveCapacity(old.blocks.count)
        var lastSurvivor: Int?
        var lastNew = -1
        for index in old.blocks.indices {
            if let survivor = survivors[index] {
                lastSurvivor = index
                lastNew = survivor
                gapNew.append(survivor..<survivor)
                gapStart.append(index)
            } else {
                gapNew.append(lastNew + 1..<lastNew + 1)
                gapStart.append((lastSurvivor ?? -1) + 1)
            }
        }
        // Each gap ends where the next survivor begins in the new version.
        var nextNew = new.blocks.count
        for index in old.blocks.indices.reversed() {
            if let survivor = survivors[index] {
                nextNew = survivor
            } else {
                gapNew[index] = gapNew[index].lowerBound..<max(nextNew, gapNew[index].lowerBound)
            }
        }
        self.survivors = survivors
        self.gapNew = gapNew
        self.gapStart = gapStart
    }

    /// The new block an old block's text is in, unchanged, if it survived.
    public func survivor(of block: Int) -> Int? {
        survivors.indices.contains(block) ? survivors[block] : nil
    }

    /// A reader's place carried onto the new version: the same text when
    /// its block survived, else the nearest surviving text.
    public func place(_ anchor: Anchor) -> Anchor {
        guard !new.blocks.isEmpty else { return .top }
        guard old.blocks.indices.contains(anchor.block) else {
            return Anchor(block: min(max(anchor.block, 0), new.blocks.count - 1), offset: 0)
        }
        if let survivor = survivors[anchor.block] {
            return Anchor(block: survivor, offset: min(max(anchor.offset, 0), new.blocks[survivor].text.count))
        }
        let gap = gapNew[anchor.block]
        if !gap.isEmpty {
            let index = gap.lowerBound + min(anchor.block - gapStart[anchor.block], gap.count - 1)
            return Anchor(block: index, offset: carried(anchor, into: index))
        }
        if gap.upperBound < new.blocks.count { return Anchor(block: gap.upperBound, offset: 0) }
        return Anchor(block: max(gap.lowerBound - 1, 0), offset: 0)
    }

    /// A pointer's passage (`length` characters from `anchor`) carried onto
    /// the new version: where its text is now (its own block's place when
    /// unchanged, else the occurrence nearest to where it was), the whole
    /// edited block when it marked a whole block most of whose text stands,
    /// or nil when its text is gone.
    public func passage(_ anchor: Anchor, length: Int) -> (anchor: Anchor, length: Int)? {
        guard old.blocks.indices.contains(anchor.block), !new.blocks.isEmpty else { return nil }
        if let survivor = survivors[anchor.block] {
            return (Anchor(block: survivor, offset: anchor.offset), length)
        }
        let block = old.blocks[anchor.block]
        let text = Array(block.text)
        let lower = min(max(anchor.offset, 0), text.count)
        let upper = min(max(anchor.offset + length, lower), text.count)
        let quote = String(text[lower..<upper])
        let near = place(anchor).block
        // The block itself, moved: unchanged text that no survivor took.
        let taken = Set(survivors.compactMap { $0 })
        if let moved = Self.nearestFirst(around: near, count: new.blocks.count).first(where: { candidate in
            !taken.contains(candidate) && new.blocks[candidate].kind == block.kind && new.blocks[candidate].text == block.text
        }) {
            return (Anchor(block: moved, offset: anchor.offset), length)
        }
        if !quote.isEmpty {
            for candidate in Self.nearestFirst(around: near, count: new.blocks.count) {
                let blockText = new.blocks[candidate].text
                guard let found = blockText.firstRange(of: quote) else { continue }
                return (Anchor(block: candidate, offset: blockText.distance(from: blockText.startIndex, to: found.lowerBound)),
                        quote.count)
            }
        }
        let gap = gapNew[anchor.block]
        guard lower == 0, upper == text.count, !gap.isEmpty, new.blocks[near].kind == old.blocks[anchor.block].kind else {
            return nil
        }
        let edited = Array(new.blocks[near].text)
        return Self.standing(text, in: edited) ? (Anchor(block: near, offset: 0), edited.count) : nil
    }

    /// The offset in new block `index` for `anchor`'s place: where the words
    /// from its offset on are now, else the same offset, as far as it goes.
    private func carried(_ anchor: Anchor, into index: Int) -> Int {
        let newText = new.blocks[index].text
        guard anchor.offset > 0 else { return 0 }
        let oldText = Array(old.blocks[anchor.block].text)
        let from = min(anchor.offset, oldText.count)
        let rest = oldText[from...]
        let words = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        // The longest of: the next 24 characters, the next two words, the next word.
        var needles = [String(rest.prefix(24))]
        if words.count >= 2 { needles.append(words[0...1].map { String($0) }.joined(separator: " ")) }
        if let first = words.first { needles.append(String(first)) }
        for needle in needles where needle.count >= 3 {
            if let offset = Self.occurrence(of: needle, in: newText, nearest: anchor.offset) { return offset }
        }
        return min(anchor.offset, newText.count)
    }

    /// The character offset of the occurrence of `needle` in `text` nearest
    /// to `offset`, if there is one.
    static func occurrence(of needle: String, in text: String, nearest offset: Int) -> Int? {
        var best: Int?
        var start = text.startIndex
        var position = 0
        while let found = text[start...].firstRange(of: needle) {
            position += text.distance(from: start, to: found.lowerBound)
            if best.map({ abs($0 - offset) > abs(position - offset) }) ?? true { best = position }
            guard found.lowerBound < text.endIndex else { break }
            start = text.index(after: found.lowerBound)
            position += 1
        }
        return best
    }

    /// Block indices from `center` outwards: center, center+1, center−1, …
    static func nearestFirst(around center: Int, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let center = min(max(center, 0), count - 1)
        var out = [center]
        out.reserveCapacity(count)
        var step = 1
        while out.count < count {
            if center + step < count { out.append(center + step) }
            if center - step >= 0 { out.append(center - step) }
            step += 1
        }
        return out
    }

    /// Whether most of `old` stands in `new`: their common start and end
    /// make at least half of the longer one.
    static func standing(_ old: [Character], in new: [Character]) -> Bool {
        let longest = max(old.count, new.count)
        guard longest > 0 else { return true }
        var prefix = 0
        while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        return (prefix + suffix) * 2 >= longest
    }

    // MARK: - Alignment

    /// What makes two blocks the same block: their kind and their text,
    /// byte for byte. The hash is taken once, over the text's UTF-8 (not
    /// String's hashing, which normalizes).
    struct Key: Hashable {
        let kind: BlockKind
        let text: String
        let digest: Int

        init(_ block: Block) {
            kind = block.kind
            text = block.text
            var hasher = Hasher()
            hasher.combine(kind)
            var text = block.text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            digest = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.kind == b.kind && a.text.utf8.elementsEqual(b.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
        }
    }

    /// For each element of `a`, the index in `b` it is aligned with.
    static func align(_ a: [Key], _ b: [Key]) -> [Int?] {
        var result = [Int?](repeating: nil, count: a.count)
        var pending = [(0..<a.count, 0..<b.count)]
        while let (ra, rb) = pending.popLast() {
            var (lowA, lowB, highA, highB) = (ra.lowerBound, rb.lowerBound, ra.upperBound, rb.upperBound)
            while lowA < highA, lowB < highB, a[lowA] == b[lowB] {
                result[lowA] = lowB
                lowA += 1
                lowB += 1
            }
            while highA > lowA, highB > lowB, a[highA - 1] == b[highB - 1] {
                result[highA - 1] = highB - 1
                highA -= 1
                highB -= 1
            }
            guard lowA < highA, lowB < highB else { continue }
            let anchors = uniqueCommon(a, lowA..<highA, b, lowB..<highB)
            guard !anchors.isEmpty else { continue }
            var startA = lowA, startB = lowB
            for (indexA, indexB) in anchors {
                result[indexA] = indexB
                if startA < indexA, startB < indexB { pending.append((startA..<indexA, startB..<indexB)) }
                startA = indexA + 1
                startB = indexB + 1
            }
            if startA < highA, startB < highB { pending.append((startA..<highA, startB..<highB)) }
        }
        return result
    }

    /// The longest in-order run of pairs of elements that occur exactly
    /// once in each range (patience diff's anchors).
    static func uniqueCommon(_ a: [Key], _ ra: Range<Int>, _ b: [Key], _ rb: Range<Int>) -> [(Int, Int)] {
        var inA: [Key: Int] = [:]
        var seenTwice: Set<Key> = []
        for index in ra {
            if inA.updateValue(index, forKey: a[index]) != nil { seenTwice.insert(a[index]) }
        }
        var inB: [Key: Int] = [:]
        for index in rb {
            if inB.updateValue(index, forKey: b[index]) != nil { seenTwice.insert(b[index]) }
        }
        let pairs = inA.compactMap { key, indexA -> (Int, Int)? in
            guard !seenTwice.contains(key), let indexB = inB[key] else { return nil }
            return (indexA, indexB)
        }.sorted { $0.0 < $1.0 }
        return longestIncreasing(pairs)
    }

    /// The longest subsequence of `pairs` (in order of their first element)
    /// whose second elements increase.
    static func longestIncreasing(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: pairs.count)
        for (index, pair) in pairs.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if pairs[tails[mid]].1 < pair.1 { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var out: [(Int, Int)] = []
        var index = tails.last ?? -1
        while index >= 0 {
            out.append(pairs[index])
            index = previous[index]
        }
        return out.reversed()
    }
}
