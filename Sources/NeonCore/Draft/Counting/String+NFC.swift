extension String {
    /// The string's scalars in Normalization Form C.
    ///
    /// The standard library normalizes to NFC to compare strings but has no
    /// public API for it; `_nfcCodeUnits` is the underscored public entry to
    /// that normalizer, which keeps the core free of Foundation.
    var nfcScalars: [Unicode.Scalar] {
        Array(String(decoding: _nfcCodeUnits, as: UTF8.self).unicodeScalars)
    }
}
