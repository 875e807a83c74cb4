import LaminaJSON

/// How lottie-ios's Core Animation engine cuts one level of shape items into
/// the units it draws, each a `CAShapeLayer` (or a gradient's layers): a
/// render group is some paths and the fill, stroke and trim that draw them.
///
/// The rules, which differ from After Effects' and which Apple's pictures of
/// Lottie files follow:
/// - a fill draws the paths listed since the fill before it (not all the
///   paths above it); a fill with no such paths draws the previous fill's
///   paths, unless child groups will take it;
/// - a stroke, a trim or rounded corners apply to every path listed before it;
/// - a path listed after a trim starts a new unit, which the trim does not cut;
/// - one fill and one stroke over it, of the same opacity, are one layer;
///   otherwise each fill and stroke is a layer of its own, the first listed on top;
/// - what no unit uses (a fill or stroke or trim at a level without paths)
///   is handed down to the child groups, after their own items.
///
/// Items are named by their index in the list.
struct LottieRenderGroup: Equatable {
    /// The path items, in list order.
    var paths: [Int] = []
    /// Fills, strokes, trims and rounded corners, in list order.
    var others: [Int] = []

    /// The render groups of `items`, front first, and the items none of them
    /// uses (in list order). `childGroupsInherit`: the level has child groups
    /// that will take what is unused (then a fill without paths of its own
    /// does not borrow the previous fill's).
    static func split(_ items: [LottieShapeItem], childGroupsInherit: Bool) -> (groups: [LottieRenderGroup], unused: [Int]) {
        var groups = [LottieRenderGroup()]
        for (index, item) in items.enumerated() {
            if item.drawsPath {
                if groups[groups.count - 1].others.contains(where: { items[$0].trim != nil }) {
                    groups.append(LottieRenderGroup())
                }
                groups[groups.count - 1].paths.append(index)
            } else if let paint = item.paint, paint.isFill {
                let last = groups.count - 1
                groups[last].others.append(index)
                if groups[last].paths.isEmpty, !childGroupsInherit, last > 0 {
                    groups[last].paths = groups[last - 1].paths
                }
                groups.append(LottieRenderGroup())
            } else if item.paint != nil || item.trim != nil || item.isRoundedCorners {
                for k in groups.indices { groups[k].others.append(index) }
            }
        }
        // One layer draws one fill and one stroke over it, at one opacity;
        // otherwise each fill and stroke is a unit of its own.
        groups = groups.flatMap { group -> [LottieRenderGroup] in
            let paints = group.others.filter { items[$0].paint != nil }
            let modifiers = group.others.filter { items[$0].trim != nil || items[$0].isRoundedCorners }
            let fills = paints.filter { items[$0].paint!.isFill }, strokes = paints.filter { items[$0].paint!.isStroke }
            if fills.count == 1, strokes.count == 1, strokes[0] < fills[0],
               Self.sameOpacity(items[fills[0]].paint!, items[strokes[0]].paint!) {
                return [group]
            }
            return paints.map { LottieRenderGroup(paths: group.paths, others: [$0] + modifiers) }
        }
        groups.removeAll { $0.paths.isEmpty }
        let used = Set(groups.flatMap { $0.paths + $0.others })
        let unused = items.indices.filter { !used.contains($0) && !items[$0].isGroup && !items[$0].isRepeater }
        return (groups, unused)
    }

    /// Whether two paints' opacities (`o`) are written the same.
    private static func sameOpacity(_ a: LottiePaint, _ b: LottiePaint) -> Bool {
        switch (a.object["o"], b.object["o"]) {
        case (nil, nil): true
        case (let x?, let y?): Self.same(x, y)
        default: false
        }
    }

    /// Two JSON values of the same content (positions aside).
    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a.kind, b.kind) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.members.allSatisfy { member in y[member.key].map { same(member.value, $0) } ?? false }
        default: return false
        }
    }
}
