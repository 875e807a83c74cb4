// AtMostTwo: what a draw samples, held without an array.
import Testing
@testable import LaminaRender

@Suite struct AtMostTwoTests {
    @Test func holdsNoneOneOrTwoInOrder() {
        #expect(Array(AtMostTwo<Int>()) == [] && AtMostTwo<Int>().isEmpty)
        #expect(Array(AtMostTwo(4)) == [4])
        #expect(Array(AtMostTwo(4, 7)) == [4, 7])
        #expect(Array(AtMostTwo(nil, 7)) == [7])
        var appended = AtMostTwo<Int>()
        appended.append(3)
        appended.append(9)
        #expect(Array(appended) == [3, 9] && appended == AtMostTwo(3, 9) && appended != AtMostTwo(9, 3))
    }

    @Test func aMaskedPictureSamplesItsPictureAndItsMask() {
        let fill = PolygonFill.masked(source: .surface(.offscreen(2)), mask: .surface(.offscreen(5)), localRect: .zero, inverted: false)
        #expect(Array(fill.textureSources) == [.surface(.offscreen(2)), .surface(.offscreen(5))])
        #expect(Array(PolygonFill.color(.white).textureSources).isEmpty)
    }
}
