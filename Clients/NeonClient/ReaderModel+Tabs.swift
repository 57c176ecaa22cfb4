import NeonCore
import NeonTUI

extension ReaderModel {
    /// The tab titles' fields on this terminal: each title's width, at most
    /// `maxTabTitleWidth` and never wider than the header's strip.
    var tabFields: [Int] {
        TabHeader.fieldWidths(tabWidths, width: geometry.columns)
    }

    /// The current tab's swing at `time`: its title slides to show its end
    /// and back when wider than its field (the swing-text seed), 0 when it
    /// fits. Other titles too wide for their fields end in "…".
    func currentTabSwing(at time: Duration) -> Int {
        currentTabMotion?.offset(at: time) ?? 0
    }

    /// Whether the current tab's title swings.
    var currentTabSwings: Bool {
        currentTabMotion?.swings ?? false
    }

    private var currentTabMotion: SwingMotion? {
        let fields = tabFields
        guard layout != nil, tabTitles.indices.contains(currentSection), fields.count == tabTitles.count else { return nil }
        return TabHeader.titleMotion(tabTitles[currentSection], fieldWidth: fields[currentSection])
    }
}
