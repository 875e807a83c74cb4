import Foundation
import Testing
@testable import LaminaCore
import LaminaRaster

@Suite("CGColor")
struct ColorTests {
    @Test func componentsAndConstants() {
        let c = CGColor(red: 1, green: 0.5, blue: 0.25, alpha: 0.5)
        #expect(c.components == [1, 0.5, 0.25, 0.5])
        #expect(c.numberOfComponents == 4)
        #expect(c.alpha == 0.5)
        #expect(CGColor.black == CGColor(gray: 0, alpha: 1))
        #expect(CGColor.white == CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(CGColor.clear.alpha == 0)
        #expect(CGColor(srgbRed: 0.1, green: 0.2, blue: 0.3, alpha: 1) == CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
    }

    @Test func premultipliesAndCopies() {
        let c = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        let p = RGBA(c).premultiplied
        #expect(p.0 == 0.5 && p.1 == 0.25 && p.2 == 0 && p.3 == 0.5)
        #expect(PremultipliedColor(c) == PremultipliedColor(r: 128, g: 64, b: 0, a: 128))
        #expect(c.copy(alpha: 1).alpha == 1 && c.copy(alpha: 1).green == 0.5)
    }

    @Test func clampsAndSanitises() {
        let c = CGColor(red: 2, green: -1, blue: .nan, alpha: .infinity)
        #expect(c.components == [1, 0, 0, 0])
        #expect(Set([CGColor.black, CGColor(gray: 0, alpha: 1)]).count == 1)
    }
}
