import Foundation

// The arithmetic that animations need. Every operation returns nil when the
// operands do not fit together (different kinds, array lengths, an opaque
// value, a singular transform where an inverse is needed): the animation then
// has no effect rather than a made-up value.
//
// "Addition" is what `isAdditive`, `byValue` and `isCumulative` mean: for
// vectors the sum of components; for transforms concatenation, with the
// increment applied first and the base after it (`increment * base` in Core
// Animation's row-vector order), as `CATransform3DRotate(base, ...)` puts a
// rotation before `base`.

extension AnimatableValue {
    /// The value `fraction` of the way from `self` to `other`. Fractions
    /// outside 0...1 extrapolate (springs and overshooting timing curves).
    /// Exactly `self` at 0 and `other` at 1.
    func interpolated(to other: AnimatableValue, fraction f: Double) -> AnimatableValue? {
        // Two vectors, the usual case (numbers, points, colours), without
        // the pair's copy the switch below makes.
        if case .vector(let kind, let a) = self, case .vector(let otherKind, let b) = other {
            guard kind == otherKind else { return nil }
            return f == 0 ? self : f == 1 ? other : .vector(kind, a + (b - a) * f)
        }
        if case .path(let a) = self, case .path(let b) = other, !PathMorph.canMorph(a, b) {
            // Core Animation's result between paths of different elements
            // is undefined; Lamina jumps, as a discrete keyframe does: the
            // first path until the end, then the second (rather than no
            // path at all, which is what no value would show).
            return f < 1 ? self : other
        }
        guard isCompatible(with: other) else { return nil }
        if f == 0 { return self }
        if f == 1 { return other }
        switch (self, other) {
        case let (.vector(kind, a), .vector(_, b)):
            return .vector(kind, a + (b - a) * f)
        case let (.transform(a), .transform(b)):
            return .transform(TransformInterpolation.interpolate(from: a, to: b, fraction: f))
        case let (.affine(a), .affine(b)):
            let t = TransformInterpolation.interpolate(from: CATransform3D(a), to: CATransform3D(b), fraction: f)
            return .affine(t.affineTransform)
        case let (.path(a), .path(b)):
            return .path(PathMorph.interpolate(a, b, fraction: f))
        case let (.array(a), .array(b)):
            return Self.elementwise(a, b) { $0.interpolated(to: $1, fraction: f) }
        case let (.image(a), .image(b)):
            // Between keyframes the picture at the start dissolves into the one at the end.
            let start = a.fraction >= 0.5 ? (a.to ?? a.from) : a.from, end = b.fraction >= 0.5 ? (b.to ?? b.from) : b.from
            return .image(ContentsCrossfade(from: start, to: start === end ? nil : end, fraction: f))
        default:
            return nil
        }
    }

    /// `self` added onto `base`.
    func combined(onto base: AnimatableValue) -> AnimatableValue? {
        guard isCompatible(with: base) else { return nil }
        switch (self, base) {
        case let (.vector(kind, a), .vector(_, b)): return .vector(kind, a + b)
        case let (.transform(a), .transform(b)): return .transform(a.concatenating(b))
        case let (.affine(a), .affine(b)): return .affine(a.concatenating(b))
        case let (.array(a), .array(b)): return Self.elementwise(a, b) { $0.combined(onto: $1) }
        default: return nil
        }
    }

    /// The increment that, added onto `base`, gives `self`.
    func difference(from base: AnimatableValue) -> AnimatableValue? {
        guard isCompatible(with: base) else { return nil }
        switch (self, base) {
        case let (.vector(kind, a), .vector(_, b)): return .vector(kind, a - b)
        case let (.transform(a), .transform(b)):
            guard b.determinant != 0 else { return nil }
            return .transform(a.concatenating(b.inverted()))
        case let (.affine(a), .affine(b)):
            guard b.determinant != 0 else { return nil }
            return .affine(a.concatenating(b.inverted()))
        case let (.array(a), .array(b)): return Self.elementwise(a, b) { $0.difference(from: $1) }
        default: return nil
        }
    }

    /// The base that `increment`, added onto it, turns into `self`: the
    /// start of a `byValue` + `toValue` animation.
    func removing(_ increment: AnimatableValue) -> AnimatableValue? {
        guard isCompatible(with: increment) else { return nil }
        switch (self, increment) {
        case let (.vector(kind, a), .vector(_, b)): return .vector(kind, a - b)
        case let (.transform(a), .transform(b)):
            guard b.determinant != 0 else { return nil }
            return .transform(b.inverted().concatenating(a))
        case let (.affine(a), .affine(b)):
            guard b.determinant != 0 else { return nil }
            return .affine(b.inverted().concatenating(a))
        case let (.array(a), .array(b)): return Self.elementwise(a, b) { $0.removing($1) }
        default: return nil
        }
    }

    /// `self` added to itself `count` times (the identity for 0).
    func repeated(_ count: Int) -> AnimatableValue? {
        switch self {
        case let .vector(kind, c): return .vector(kind, c * Double(max(count, 0)))
        case let .transform(t): return .transform(Self.power(t, count, identity: .identity) { $0.concatenating($1) })
        case let .affine(a): return .affine(Self.power(a, count, identity: .identity) { $0.concatenating($1) })
        case let .array(items):
            let repeated = items.compactMap { $0.repeated(count) }
            return repeated.count == items.count ? .array(repeated) : nil
        case .path, .image, .opaque: return nil
        }
    }

    /// The straight-line distance to `other`, which paced keyframes keep
    /// constant per unit of time: Euclidean over the components, and over
    /// the 16 (or 6) fields for transforms.
    func distance(to other: AnimatableValue) -> Double? {
        guard isCompatible(with: other) else { return nil }
        switch (self, other) {
        case let (.vector(kind, a), .vector(_, b)):
            let d = a - b
            return (0..<kind.count).reduce(0) { $0 + d[$1] * d[$1] }.squareRoot()
        case let (.transform(a), .transform(b)): return Self.euclidean(a.fields.map(Double.init), b.fields.map(Double.init))
        case let (.affine(a), .affine(b)):
            return Self.euclidean([a.a, a.b, a.c, a.d, a.tx, a.ty].map(Double.init), [b.a, b.b, b.c, b.d, b.tx, b.ty].map(Double.init))
        case let (.array(a), .array(b)):
            var sum = 0.0
            for (x, y) in zip(a, b) {
                guard let d = x.distance(to: y) else { return nil }
                sum += d * d
            }
            return sum.squareRoot()
        default: return nil
        }
    }

    /// `Σ weight * value` over values of one vector shape (or arrays of
    /// them), for splines. Nil for transforms and opaque values, and for an
    /// empty list.
    static func linearCombination(_ terms: [(AnimatableValue, Double)]) -> AnimatableValue? {
        guard let first = terms.first?.0 else { return nil }
        guard terms.allSatisfy({ $0.0.isCompatible(with: first) }) else { return nil }
        switch first {
        case let .vector(kind, _):
            var sum = SIMD4<Double>()
            for (value, weight) in terms {
                guard case let .vector(_, components) = value else { return nil }
                sum += components * weight
            }
            return .vector(kind, sum)
        case let .array(items):
            var result: [AnimatableValue] = []
            for index in items.indices {
                let column = terms.compactMap { term -> (AnimatableValue, Double)? in
                    guard case let .array(elements) = term.0 else { return nil }
                    return (elements[index], term.1)
                }
                guard let element = linearCombination(column) else { return nil }
                result.append(element)
            }
            return .array(result)
        case .transform, .affine, .path, .image, .opaque:
            return nil
        }
    }

    private static func elementwise(
        _ a: [AnimatableValue], _ b: [AnimatableValue], _ op: (AnimatableValue, AnimatableValue) -> AnimatableValue?
    ) -> AnimatableValue? {
        var result: [AnimatableValue] = []
        result.reserveCapacity(a.count)
        for (x, y) in zip(a, b) {
            guard let r = op(x, y) else { return nil }
            result.append(r)
        }
        return .array(result)
    }

    private static func euclidean(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }

    /// `value` combined with itself `count` times by squaring; a negative
    /// count is taken as 0 (iterations never run backwards).
    private static func power<T>(_ value: T, _ count: Int, identity: T, _ multiply: (T, T) -> T) -> T {
        var result = identity, base = value, n = max(count, 0)
        while n > 0 {
            if n & 1 == 1 { result = multiply(result, base) }
            base = multiply(base, base)
            n >>= 1
        }
        return result
    }
}
