/// The names between a path's slashes, found in its UTF-8: a slash is byte 0x2F wherever it
/// stands, as the kernel reads a path (a `/` followed by a combining mark is still a slash to it,
/// where `split` on a String's characters would keep the two as one). Reading the bytes also
/// skips a grapheme break test for every character, thousands of times in a `tally docs` run.
/// Built in one pass into `[Substring]`, a type the build already has (an array of UTF-8 views,
/// from `utf8.split`, would be one more generic type for the runtime to make).
package func pathComponents(_ path: String, omittingEmpty: Bool = true) -> [Substring] {
    var components: [Substring] = []
    var start = path.startIndex
    var index = path.startIndex
    let utf8 = path.utf8
    while index != path.endIndex {
        if utf8[index] == UInt8(ascii: "/") {
            if !omittingEmpty || start != index { components.append(path[start..<index]) }
            start = utf8.index(after: index)
        }
        index = utf8.index(after: index)
    }
    if !omittingEmpty || start != path.endIndex { components.append(path[start..<path.endIndex]) }
    return components
}
