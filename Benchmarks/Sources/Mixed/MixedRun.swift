enum MixedRun { static func run(quick: Bool, threadCounts: [Int]) {} }
