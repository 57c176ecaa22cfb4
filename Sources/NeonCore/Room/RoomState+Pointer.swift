extension RoomState {
    /// A member points at `length` characters from `anchor`: the presenter
    /// moves the room's lead pointer, anyone else (where the presenter lets
    /// everyone point) their own. Everyone is told, the pointer included;
    /// an observer, a room without a document, a passage that is not in the
    /// document or a reader where only the presenter may point is refused.
    mutating func point(_ id: ClientID, at anchor: Anchor, length: Int) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers watch and cannot point; join as a reader to point at a passage")
        }
        if member.role != .presenter, pointing == .presenter {
            return refuse(id, .notAllowed, "only the presenter points in room \"\(name)\"; ask them to, or to let everyone point")
        }
        guard parsed != nil else {
            return refuse(id, .noDocument, "room \"\(name)\" has no document yet, so there is nothing to point at")
        }
        let blocks = blockLengths.count
        guard anchor.block >= 0, anchor.block < blocks else {
            return refuse(id, .invalidAnchor, "anchor block \(anchor.block) does not exist; the document has \(blocks) blocks (0–\(max(blocks - 1, 0)))")
        }
        let characters = blockLengths[anchor.block]
        guard anchor.offset >= 0, length >= 0, anchor.offset + length <= characters else {
            return refuse(id, .invalidAnchor, "\(length) characters from offset \(anchor.offset) are not inside block \(anchor.block), which has \(characters) characters")
        }
        let pointer = PointerInfo(id: id, name: member.name, lead: member.role == .presenter, anchor: anchor, length: length)
        keep(pointer)
        return [broadcast(.pointer(pointer), except: nil), pointLog(pointer)]
    }

    /// A member clears their pointer (the presenter: the lead pointer).
    mutating func unpoint(_ id: ClientID) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers watch and have no pointer to clear")
        }
        let cleared = PointerInfo(id: id, name: member.name, lead: member.role == .presenter)
        guard pointers.contains(where: { $0.isSamePointer(as: cleared) }) else { return [] }
        pointers.removeAll { $0.isSamePointer(as: cleared) }
        return [broadcast(.pointer(cleared), except: nil), pointLog(cleared)]
    }

    /// The presenter says who else may point. Pointers already set stay.
    mutating func setPointing(_ rule: PointingRule, by id: ClientID) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        guard member.role == .presenter else {
            return refuse(id, .notAllowed, "only the presenter says who may point in room \"\(name)\"")
        }
        guard rule != pointing else { return [] }
        pointing = rule
        return [.log(LogRecord(.info, .pointing, room: name, client: id, [LogField("who", .string(rule.rawValue))]))]
    }

    /// Keeps `pointer` in place of the same pointer, the lead pointer first.
    mutating func keep(_ pointer: PointerInfo) {
        if let index = pointers.firstIndex(where: { $0.isSamePointer(as: pointer) }) {
            pointers[index] = pointer
        } else if pointer.lead {
            pointers.insert(pointer, at: 0)
        } else {
            pointers.append(pointer)
        }
    }

    private func pointLog(_ pointer: PointerInfo) -> RoomOutput {
        var fields = [LogField("lead", .bool(pointer.lead))]
        if let anchor = pointer.anchor {
            fields += [LogField("block", .int(anchor.block)), LogField("offset", .int(anchor.offset)),
                       LogField("length", .int(pointer.length ?? 0))]
        } else {
            fields.append(LogField("cleared", .bool(true)))
        }
        return .log(LogRecord(.info, .point, room: name, client: pointer.id, fields))
    }
}
