import Foundation
import Testing
import TreeCodableTool

/// `--version`, `--limit`, `--element`, `--json`, `hex --stream`, and auto-detection of streams.
@Suite struct OptionsTests {
    @Test func version() {
        let outcome = runInProcess(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.output == "0.1.0-dev\n")
    }

    @Test func limitAndElement() {
        let limited = runInProcess([
            "inspect", "--stream", "--format", "v3", "--limit", "1", fixture("messages-v3.stream"),
        ])
        #expect(limited.status == 0)
        #expect(limited.output.contains("element 0 at 0:"))
        #expect(!limited.output.contains("element 1"))
        #expect(limited.output.hasSuffix("stopped early after 1 element (--limit); the rest was not read\n"))

        let one = runInProcess([
            "inspect", "--stream", "--format", "v3", "--element", "2", fixture("messages-v3.stream"),
        ])
        #expect(one.status == 0)
        #expect(one.output.hasPrefix("element 2 at 67:\n"))
        #expect(!one.output.contains("element 1"))

        let missing = runInProcess(["inspect", "--stream", "--element", "9", fixture("messages-v3.stream")])
        #expect(missing.status == 1)
        #expect(missing.errorOutput == "treecodable: error: the stream has 3 elements: there is no element 9\n")
    }

    @Test func jsonValue() {
        let outcome = runInProcess(["inspect", "--json", fixture("message-v3.bin")])
        #expect(outcome.status == 0)
        #expect(
            outcome.output.hasPrefix(
                #"{"type":"value","format":"v3","detected":true,"structureFound":true,"value":{"offset":0,"size":36,"kind":"keyed","fields":[{"key":"isRead","keyOffset":0,"wireType":null,"value":{"offset":8,"size":1,"kind":"bytes","hex":"01","readings":["Bool true","varint 1 (zig-zag -1)","UInt8 1"],"alsoFits":[]}}"#
            ))
        #expect(outcome.output.split(separator: "\n").count == 1)
    }

    @Test func jsonStreamAndDetect() {
        let stream = runInProcess(["inspect", "--stream", "--json", fixture("messages-v3.stream")])
        #expect(stream.status == 0)
        let lines = stream.output.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(
            lines.first?.hasPrefix(#"{"type":"element","index":0,"offset":0,"size":32,"nil":false,"read":true,"#)
                == true)
        #expect(lines.last == #"{"type":"end","elements":3,"stopped":null}"#)

        let detect = runInProcess(["detect", "--json", fixture("message-v2.bin")])
        #expect(
            detect.output
                == #"{"type":"detect","structureFound":true,"size":35,"readAsValue":true,"formats":[{"format":"v2","shape":"keyed container (3 fields)"},{"format":"v3","shape":"bytes"}],"stream":null,"possible":[]}"#
                + "\n")
    }

    @Test func hexStreamOffsetsAreAbsolute() {
        let outcome = runInProcess([
            "hex", "--stream", "--format", "v3", "--element", "1", fixture("messages-v3.stream"),
        ])
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.first == "element 1 at 33:")
        #expect(lines.dropFirst().first?.hasPrefix("22 ") == true)  // 0x22 = 34, after the prefix at 33
    }

    @Test func v2StreamTakenForV3PrintsNoElement() {
        let outcome = runInProcess(["inspect", "--stream", fixture("messages-v2.stream")])
        #expect(outcome.status == 1)
        #expect(!outcome.output.contains("element 0"))
        #expect(outcome.errorOutput.hasPrefix("treecodable: error: not a v3 stream: "))
    }

    @Test func largeValueStopsEarly() {
        let data = Data(repeating: 0x41, count: 5000)
        let outcome = runInProcess(["inspect", "--max-bytes", "1000"], stdin: data)
        #expect(outcome.status == 1)
        #expect(
            outcome.errorOutput
                == "treecodable: error: stopped early: standard input is larger than 1000 bytes, the most read as one "
                + "value (--max-bytes); for a stream or record file add --stream\n")
    }
}
