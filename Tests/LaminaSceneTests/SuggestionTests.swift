import Testing
@testable import LaminaScene

@Suite struct SuggestionTests {
    @Test func findsTheNearestKnownName() {
        let keys = ["cornerRadius", "borderWidth", "borderColor", "opacity", "bounds"]
        #expect(Suggestion.nearest(to: "cornerRadious", in: keys) == "cornerRadius")
        #expect(Suggestion.nearest(to: "cornerradius", in: keys) == "cornerRadius")
        #expect(Suggestion.nearest(to: "opactiy", in: keys) == "opacity")
        #expect(Suggestion.nearest(to: "borderColour", in: keys) == "borderColor")
        #expect(Suggestion.nearest(to: "zzzzzz", in: keys) == nil)
        #expect(Suggestion.didYouMean("bound", in: keys) == " (did you mean 'bounds'?)")
    }
}
