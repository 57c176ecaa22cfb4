extension Document {
    /// The tab-header seed's catalog: `[{"type": …, "body": [{"name": …,
    /// "headline": …, …}]}]`. Each type is a section opened by a level-1
    /// heading with the type's name; each entry is a card block whose text is
    /// the headline. "name" is required, "headline" may be missing, other
    /// fields are ignored. Types, names and headlines are made single-line.
    static func catalog(title: String, text: String) throws(NeonError) -> Document {
        var builder = DocumentBuilder(title: title)
        guard text.contains(where: { !$0.isWhitespace }) else { return builder.document(format: .catalog) }
        let root = try JSONParser.parse(text)
        guard case .array(let types) = root else {
            throw NeonError("a catalog must be a JSON array of types like [{\"type\": \"Birds\", \"body\": [{\"name\": …, \"headline\": …}]}], but the text is \(root.kindName)")
        }
        for (number, item) in zip(1..., types) {
            guard case .object(let fields) = item else {
                throw NeonError("catalog item \(number) is \(item.kindName), not an object with \"type\" and \"body\"")
            }
            let type = try string(fields["type"], named: "type", in: "catalog item \(number)") ?? ""
            let typePlace = "catalog type \"\(type)\" (item \(number))"
            guard case .array(let entries)? = fields["body"] else {
                throw NeonError(fields["body"].map { "\(typePlace) has \($0.kindName) as \"body\"; it must be an array of entries" }
                    ?? "\(typePlace) has no \"body\" array of entries")
            }
            builder.startSection(titled: type)
            builder.append(.heading(level: 1), text: SourceText.singleLine(type))
            for (index, entry) in zip(1..., entries) {
                let place = "catalog entry \(index) of type \"\(type)\""
                guard case .object(let card) = entry else {
                    throw NeonError("\(place) is \(entry.kindName), not an object with \"name\" and \"headline\"")
                }
                let name = try string(card["name"], named: "name", in: place) ?? ""
                let headline = try string(card["headline"], named: "headline", in: place, required: false) ?? ""
                builder.append(.card(name: SourceText.singleLine(name)), text: SourceText.singleLine(headline))
            }
        }
        return builder.document(format: .catalog)
    }

    /// A field's string; nil when an optional field is missing.
    private static func string(_ value: JSONValue?, named field: String, in place: String,
                               required: Bool = true) throws(NeonError) -> String? {
        switch value {
        case .string(let string)?:
            return string
        case nil:
            guard !required else { throw NeonError("\(place) has no \"\(field)\" string") }
            return nil
        case let other?:
            throw NeonError("\(place) has \(other.kindName) as \"\(field)\"; it must be a string")
        }
    }
}
