import CLibWebSockets
import Glibc
import NeonTransportCore

/// C memory that lws keeps pointers into for a context's whole life:
/// `strdup`ed strings and the zero-terminated protocols array. Freed on
/// deinit: a context's memory is kept by ``ServiceLifecycle`` until after
/// `lws_context_destroy`, a client connection's by its `ClientSession`,
/// which lws releases when it is done with the connection.
/// Not `Sendable`: owned by one service thread.
final class CMemory {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var protocolArrays: [UnsafeMutablePointer<lws_protocols>] = []

    /// A C copy of `string` that lives as long as this object.
    func string(_ string: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(string)!
        strings.append(copy)
        return copy
    }

    /// A copy of `entry` followed by the zeroed terminator lws stops at.
    func protocols(_ entry: lws_protocols) -> UnsafePointer<lws_protocols> {
        let array = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        array.initialize(to: entry)
        (array + 1).initialize(to: lws_protocols())
        protocolArrays.append(array)
        return UnsafePointer(array)
    }

    deinit {
        for string in strings {
            free(string)
        }
        for array in protocolArrays {
            array.deinitialize(count: 2)
            array.deallocate()
        }
    }
}

/// Stores one retained Swift object in a pointer-sized slot lws hands back
/// in every callback (the per-session data of a server connection).
enum RetainedSlot<Object: AnyObject> {
    /// Stores a +1 reference to `object` in `slot`.
    static func store(_ object: Object, in slot: UnsafeMutableRawPointer) {
        slot.storeBytes(of: Unmanaged.passRetained(object).toOpaque(), as: UnsafeMutableRawPointer?.self)
    }

    /// The object in `slot`, without changing its retain count; `nil` if
    /// the slot is empty or holds an object of another type.
    static func load(_ slot: UnsafeMutableRawPointer?) -> Object? {
        guard let raw = slot?.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? Object
    }

    /// Empties `slot` and returns its object, balancing `store`. A slot
    /// holding an object of another type is left alone.
    static func take(_ slot: UnsafeMutableRawPointer?) -> Object? {
        guard let slot, let object = load(slot) else { return nil }
        slot.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        Unmanaged.passUnretained(object).release()
        return object
    }
}
