import Foundation

/// Why an animation's settings cannot be played, naming the property and the
/// problem (`keyTimes[2]: must not be less than keyTimes[1] (0.5), got 0.25`).
///
/// Sampling never fails this way: an animation with bad settings simply has
/// no effect. `CAAnimation.validate()` reports them, so that a scene reader
/// can refuse the scene with the JSON location in front of `property`.
public struct AnimationValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The property at fault, with an index where it is an array element.
    public var property: String
    /// What was expected and what was found.
    public var problem: String

    /// An error about `property`: `problem`.
    public init(property: String, problem: String) {
        self.property = property
        self.problem = problem
    }

    public var description: String { "\(property): \(problem)" }
}
