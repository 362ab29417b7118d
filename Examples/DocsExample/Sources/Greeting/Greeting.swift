/// A greeting for a count of visitors.
public func greeting(visitors: Int) -> String {
    visitors == 1 ? "Hello, first visitor!" : "Hello, \(visitors) visitors!"
}
