import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG read back with a real XML parser (libxml2 through Foundation), so the tests check
/// what any consumer would see, not our own idea of the text.
final class XMLElement {
    let name: String
    let attributes: [String: String]
    var children: [XMLElement] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    var descendants: [XMLElement] { children.flatMap { [$0] + $0.descendants } }

    func first(_ name: String) -> XMLElement? { descendants.first { $0.name == name } }

    static func parse(_ data: Data) -> Result<XMLElement, Error> {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            return .failure(parser.parserError ?? NSError(domain: "XML", code: 1))
        }
        return .success(root)
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLElement?
        var stack: [XMLElement] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = XMLElement(name: name, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
