import Foundation
import Testing
import TreeCodableTool

/// Every command that takes `--limit` (`inspect`, `hex` and its old name `dump`) ends a stream run
/// with the number of elements it printed, the same in the text summary and the JSON end line.
@Suite struct StreamCountTests {
    /// A `--limit` on messages-v3.stream (3 elements), with the text summary and JSON end line it
    /// gives and the number of elements printed before them.
    struct Case: Sendable, CustomStringConvertible {
        var limit: Int
        var summary: String
        var end: String
        var printed: Int
        var description: String { "--limit \(limit)" }
    }

    static let cases = [
        Case(
            limit: 0, summary: "stopped early after 0 elements (--limit); the rest was not read",
            end: #"{"type":"end","elements":0,"stopped":"limit"}"#, printed: 0),
        Case(
            limit: 1, summary: "stopped early after 1 element (--limit); the rest was not read",
            end: #"{"type":"end","elements":1,"stopped":"limit"}"#, printed: 1),
        Case(
            limit: 2, summary: "stopped early after 2 elements (--limit); the rest was not read",
            end: #"{"type":"end","elements":2,"stopped":"limit"}"#, printed: 2),
        Case(limit: 5, summary: "3 elements", end: #"{"type":"end","elements":3,"stopped":null}"#, printed: 3),
    ]

    /// The element headings of a text run (`element 0 at 0:`).
    static func headings(_ output: String) -> Int {
        output.split(separator: "\n").filter { $0.hasPrefix("element ") }.count
    }

    /// The element lines of a JSON run.
    static func elementLines(_ output: String) -> Int {
        output.split(separator: "\n").filter { $0.hasPrefix(#"{"type":"element","#) }.count
    }

    /// The first number in `line`: the count of a summary or of an end line's `elements`.
    static func firstNumber(_ line: Substring?) -> Int? {
        guard let line else { return nil }
        return Int(String(line.drop { !$0.isNumber }.prefix { $0.isNumber }))
    }

    /// In auto mode the runner frames up to 64 elements ahead before printing any: the end line
    /// still counts only those printed.
    @Test(arguments: [[], ["--format", "v3"]], cases)
    func inspectTextAndJSONAgree(_ format: [String], _ c: Case) {
        let arguments = ["inspect", "--stream", "--limit", String(c.limit)] + format + [fixture("messages-v3.stream")]
        let text = runInProcess(arguments)
        let json = runInProcess(arguments + ["--json"])
        #expect(text.status == 0 && json.status == 0)
        #expect(text.errorOutput == "" && json.errorOutput == "")
        let textLines = text.output.split(separator: "\n")
        let jsonLines = json.output.split(separator: "\n")
        #expect(textLines.last.map(String.init) == c.summary)
        #expect(jsonLines.last.map(String.init) == c.end)
        #expect(Self.headings(text.output) == c.printed)
        #expect(Self.elementLines(json.output) == c.printed)
        #expect(Self.firstNumber(textLines.last) == c.printed)
        #expect(Self.firstNumber(jsonLines.last) == c.printed)
    }

    @Test(arguments: ["hex", "dump"], cases)
    func hexSummaryCountsWhatItPrinted(_ command: String, _ c: Case) {
        let outcome = runInProcess([command, "--stream", "--limit", String(c.limit), fixture("messages-v3.stream")])
        #expect(outcome.status == 0)
        #expect(outcome.errorOutput == "")
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.first == "format: v3 stream (only v3 streams can be split without a type)")
        #expect(lines.last.map(String.init) == c.summary)
        #expect(Self.headings(outcome.output) == c.printed)
        #expect(Self.firstNumber(lines.last) == c.printed)
    }

    /// `--element` prints one element: the JSON end line counts it, the text names it.
    @Test(arguments: [[], ["--format", "v3"]])
    func elementCountsTheOneElementPrinted(_ format: [String]) {
        let arguments = ["inspect", "--stream", "--element", "2"] + format + [fixture("messages-v3.stream")]
        let text = runInProcess(arguments)
        let json = runInProcess(arguments + ["--json"])
        #expect(text.output.hasSuffix("\nstopped early after element 2 (--element); the rest was not read\n"))
        #expect(Self.headings(text.output) == 1)
        #expect(json.output.hasSuffix("\n" + #"{"type":"end","elements":1,"stopped":"element"}"# + "\n"))
        #expect(Self.elementLines(json.output) == 1)
    }
}
