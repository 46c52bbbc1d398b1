import Foundation
import TreeCodableTool

// A thin wrapper: all the work, including the exit code, is in `TreeCodableTool.run`.
exit(TreeCodableTool.run(Array(CommandLine.arguments.dropFirst())))
