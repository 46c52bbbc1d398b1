import Foundation
import Testing
import TreeCodableTool

/// Tools/README.md's session, run command by command: each prints exactly what the README shows.
@Suite struct ReadmeSessionTests {
    /// The session's commands, each with the text shown after it (output, then error output).
    static func session() throws -> [(arguments: [String], shown: String, status: Int32?)] {
        let text = try readmeText()
        guard let heading = text.range(of: "## A session"),
            let open = text.range(of: "```\n", range: heading.upperBound..<text.endIndex),
            let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex)
        else { return [] }
        var commands: [(arguments: [String], shown: String, status: Int32?)] = []
        var statusFollows = false
        for line in text[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ treecodable ") {
                let words = line.dropFirst("$ treecodable ".count).split(separator: " ").map(String.init)
                commands.append((words, "", nil))
            } else if line == "$ echo $?" {
                statusFollows = true
            } else if let last = commands.indices.last {
                if statusFollows {
                    commands[last].status = Int32(line)
                    statusFollows = false
                } else {
                    commands[last].shown += line + "\n"
                }
            }
        }
        return commands
    }

    @Test func sessionReproduces() throws {
        let commands = try Self.session()
        #expect(commands.count >= 8)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        for command in commands {
            let arguments = command.arguments.map { names.contains($0) ? fixture($0) : $0 }
            let outcome = runInProcess(arguments)
            #expect(outcome.output + outcome.errorOutput == command.shown, "treecodable \(command.arguments)")
            if let status = command.status { #expect(outcome.status == status, "\(command.arguments)") }
        }
    }
}
