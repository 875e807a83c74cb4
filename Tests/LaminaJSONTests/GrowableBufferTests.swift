// The parser's append-only buffers: growth keeps every element, bulk
// appends of few and many elements, truncation, and handing the storage on.
import Testing
@testable import LaminaJSON

@Suite struct GrowableBufferTests {
    @Test func growingKeepsEveryElementInOrder() {
        var buffer = GrowableBuffer<UInt32>(capacity: 1)
        for k in 0..<10_000 { buffer.append(UInt32(k)) }
        #expect(buffer.count == 10_000)
        #expect(buffer.array() == (0..<10_000).map(UInt32.init))
        buffer[5] = 99
        #expect(buffer[5] == 99)
        #expect(buffer.removeLast() == 9_999)
        buffer.removeAll(from: 3)
        #expect(buffer.array() == [0, 1, 2])
    }

    @Test func bulkAppendsOfFewAndManyElements() {
        var source = GrowableBuffer<UInt32>(capacity: 4)
        for k in 0..<100 { source.append(UInt32(k)) }
        var target = GrowableBuffer<UInt32>(capacity: 4)
        target.append(from: source, 0..<3)       // a few: stored one by one
        target.append(from: source, 10..<60)     // many: copied in one piece, growing the storage
        target.append(from: source, 99..<99)     // none
        #expect(target.array() == [0, 1, 2] + (10..<60).map(UInt32.init))
    }

    @Test func takingTheStorageKeepsTheElements() {
        var buffer = GrowableBuffer<Int>(capacity: 2)
        for k in 0..<5 { buffer.append(k * k) }
        let storage = buffer.take()
        defer { storage.deallocate() }
        #expect(Array(storage) == [0, 1, 4, 9, 16])
    }
}
