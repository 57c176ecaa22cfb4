/// Where a text's grapheme clusters start and end, as offsets in Unicode
/// scalars: the editor keeps its cursor on these boundaries and moves and
/// deletes by whole clusters while its edits count scalars.
struct GraphemeBoundaries {
    /// The text's grapheme clusters.
    let characters: [Character]
    /// The scalar offset where each cluster starts, then the text's length.
    let offsets: [Int]

    init(_ text: String) {
        var characters: [Character] = []
        var offsets = [0]
        var offset = 0
        for character in text {
            offset += character.unicodeScalars.count
            characters.append(character)
            offsets.append(offset)
        }
        self.characters = characters
        self.offsets = offsets
    }

    /// The text's length in scalars.
    var length: Int { offsets[offsets.count - 1] }

    /// The index of the cluster holding `position`, or `characters.count`
    /// at the end: the last boundary at or before it.
    func cluster(at position: Int) -> Int {
        var low = 0
        var high = offsets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The first boundary at or after `position`, within the text.
    func snapped(_ position: Int) -> Int {
        guard position > 0 else { return 0 }
        guard position < length else { return length }
        let index = cluster(at: position)
        return offsets[index] == position ? position : offsets[index + 1]
    }

    /// The boundary one cluster before `position` (0 at the start).
    func before(_ position: Int) -> Int {
        let index = cluster(at: position)
        return offsets[offsets[index] == position ? max(index - 1, 0) : index]
    }

    /// The boundary one cluster after `position` (the length at the end).
    func after(_ position: Int) -> Int {
        offsets[min(cluster(at: position) + 1, offsets.count - 1)]
    }
}
