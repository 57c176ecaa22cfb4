import NeonCore
import NeonServer

/// A room made and a document set as the server does it: one record
/// committed through `RoomStore.commit`, which the tests reach a store's
/// rooms by.
extension RoomStore {
    /// A room came into being with its counting profile's name and draft
    /// limit; a room of that name must not exist yet.
    package func createRoom(_ name: String, profile: String, limit: Int) throws(NeonError) {
        try commit([.roomCreated(room: name, profile: profile, limit: limit)])
    }

    /// The room's document was set or replaced.
    package func setDocument(_ document: DocumentInfo, room: String) throws(NeonError) {
        try commit([.documentSet(room: room, document)])
    }
}
