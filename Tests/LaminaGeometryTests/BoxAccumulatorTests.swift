// The box of a list of points, both coordinates at once: the same box as
// adding the points one by one, and none for a list holding a point that is
// not finite.
import Foundation
import Testing
@testable import LaminaGeometry

@Suite struct BoxAccumulatorTests {
    private func oneByOne(_ points: [CGPoint]) -> CGRect {
        var box = BoxAccumulator()
        for p in points { box.add(p) }
        return box.rect
    }

    @Test func theBoxOfPointsIsTheBoxOfAddingThemOneByOne() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let points = (0..<Int.random(in: 1...40, using: &random)).map { _ in
                CGPoint(x: .random(in: -1e6...1e6, using: &random), y: .random(in: -1e3...1e3, using: &random))
            }
            #expect(BoxAccumulator(finite: points)?.rect == oneByOne(points))
        }
        let one = [CGPoint(x: 3, y: -4)]
        #expect(BoxAccumulator(finite: one)?.rect == CGRect(x: 3, y: -4, width: 0, height: 0))
    }

    @Test func noPointsMakeAnEmptyBox() throws {
        let box = try #require(BoxAccumulator(finite: []))
        #expect(box.isEmpty)
        #expect(box.rect.isNull)
    }

    @Test func aPointThatIsNotFiniteMakesNoBox() {
        let finite = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 5), CGPoint(x: -3, y: 8)]
        for bad in [CGFloat.nan, .infinity, -.infinity] {
            for i in 0...finite.count {
                var withX = finite, withY = finite
                withX.insert(CGPoint(x: bad, y: 1), at: i)
                withY.insert(CGPoint(x: 1, y: bad), at: i)
                #expect(BoxAccumulator(finite: withX) == nil)
                #expect(BoxAccumulator(finite: withY) == nil)
            }
        }
        // Far but finite is a box.
        #expect(BoxAccumulator(finite: [CGPoint(x: Double.greatestFiniteMagnitude, y: -Double.greatestFiniteMagnitude)]) != nil)
    }
}
