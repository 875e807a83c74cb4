// The layer tree: adding, inserting, replacing, removing, masks, cycles.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct LayerTreeTests {
    private func names(_ layer: CALayer) -> [String?] {
        (layer.sublayers ?? []).map(\.name)
    }

    private func parent(with children: [String]) -> (CALayer, [CALayer]) {
        let parent = CALayer()
        let children = children.map { name -> CALayer in
            let layer = CALayer()
            layer.name = name
            parent.addSublayer(layer)
            return layer
        }
        return (parent, children)
    }

    @Test func aNewLayerHasNoSublayersAndNoSuperlayer() {
        let layer = CALayer()
        #expect(layer.sublayers == nil)
        #expect(layer.superlayer == nil)
    }

    @Test func addSublayerAppendsAndSetsTheSuperlayer() {
        let (parent, children) = parent(with: ["a", "b", "c"])
        #expect(names(parent) == ["a", "b", "c"])
        #expect(children.allSatisfy { $0.superlayer === parent })
    }

    @Test func addingALayerElsewhereTakesItFromItsOldParent() {
        let (first, children) = parent(with: ["a", "b"])
        let second = CALayer()
        second.addSublayer(children[0])
        #expect(names(first) == ["b"])
        #expect(names(second) == ["a"])
        #expect(children[0].superlayer === second)
    }

    @Test func addingAnExistingSublayerAgainMovesItToTheFront() {
        let (parent, children) = parent(with: ["a", "b", "c"])
        parent.addSublayer(children[0])
        #expect(names(parent) == ["b", "c", "a"])
    }

    @Test func insertAtIndexClampsPastTheEnd() {
        let (parent, _) = parent(with: ["a", "b"])
        let x = CALayer(); x.name = "x"
        let y = CALayer(); y.name = "y"
        parent.insertSublayer(x, at: 1)
        parent.insertSublayer(y, at: 99)
        #expect(names(parent) == ["a", "x", "b", "y"])
    }

    @Test func insertBelowAndAboveASibling() {
        let (parent, children) = parent(with: ["a", "b", "c"])
        let x = CALayer(); x.name = "x"
        let y = CALayer(); y.name = "y"
        parent.insertSublayer(x, below: children[1])
        parent.insertSublayer(y, above: children[1])
        #expect(names(parent) == ["a", "x", "b", "y", "c"])
    }

    @Test func insertBelowOrAboveNilGoesToTheBackOrTheFront() {
        let (parent, _) = parent(with: ["a", "b"])
        let x = CALayer(); x.name = "x"
        let y = CALayer(); y.name = "y"
        parent.insertSublayer(x, below: nil)
        parent.insertSublayer(y, above: nil)
        #expect(names(parent) == ["x", "a", "b", "y"])
    }

    @Test func insertRelativeToASiblingOfTheSameParentReorders() {
        let (parent, children) = parent(with: ["a", "b", "c"])
        parent.insertSublayer(children[2], below: children[0])
        #expect(names(parent) == ["c", "a", "b"])
        parent.insertSublayer(children[2], above: children[1])
        #expect(names(parent) == ["a", "b", "c"])
    }

    @Test func replaceSublayerKeepsThePlace() {
        let (parent, children) = parent(with: ["a", "b", "c"])
        let x = CALayer(); x.name = "x"
        parent.replaceSublayer(children[1], with: x)
        #expect(names(parent) == ["a", "x", "c"])
        #expect(children[1].superlayer == nil)
        #expect(x.superlayer === parent)
    }

    @Test func replaceWithASiblingMovesTheSibling() {
        let (parent, children) = parent(with: ["a", "b", "c"])
        parent.replaceSublayer(children[0], with: children[2])
        #expect(names(parent) == ["c", "b"])
    }

    @Test func replacingALayerThatIsNotASublayerChangesNothing() {
        let (parent, _) = parent(with: ["a"])
        let stranger = CALayer()
        parent.replaceSublayer(stranger, with: CALayer())
        #expect(names(parent) == ["a"])
    }

    @Test func removeFromSuperlayer() {
        let (parent, children) = parent(with: ["a", "b"])
        children[0].removeFromSuperlayer()
        #expect(names(parent) == ["b"])
        #expect(children[0].superlayer == nil)
        children[1].removeFromSuperlayer()
        #expect(parent.sublayers == nil)
        children[1].removeFromSuperlayer()  // no superlayer: nothing happens
    }

    @Test func settingSublayersReplacesThemAndSkipsRepeats() {
        let (parent, children) = parent(with: ["a", "b"])
        let x = CALayer(); x.name = "x"
        let other = CALayer()
        other.addSublayer(x)
        parent.sublayers = [x, children[1], x]
        #expect(names(parent) == ["x", "b"])
        #expect(children[0].superlayer == nil)
        #expect(other.sublayers == nil)
        parent.sublayers = nil
        #expect(parent.sublayers == nil)
        #expect(x.superlayer == nil)
    }

    @Test func settingSublayersCanTakeTheMask() {
        let parent = CALayer(), mask = CALayer()
        parent.mask = mask
        parent.sublayers = [mask]
        #expect(parent.mask == nil)
        #expect(parent.sublayers?.first === mask)
        #expect(mask.superlayer === parent)
        // Listed twice, it is added once.
        let other = CALayer()
        parent.sublayers = nil
        parent.mask = mask
        parent.sublayers = [mask, other, mask]
        #expect(parent.mask == nil)
        #expect(parent.sublayers?.count == 2)
        #expect(parent.sublayers?.first === mask)
    }

    @Test func aLayerCannotBecomeItsOwnSublayer() {
        let layer = CALayer()
        #expect(!layer.canAdd(layer))
        layer.addSublayer(layer)
        #expect(layer.sublayers == nil)
        #expect(layer.superlayer == nil)
    }

    @Test func anAncestorCannotBecomeASublayer() {
        let root = CALayer(), middle = CALayer(), leaf = CALayer()
        root.addSublayer(middle)
        middle.addSublayer(leaf)
        #expect(!leaf.canAdd(root))
        leaf.addSublayer(root)
        leaf.insertSublayer(root, at: 0)
        leaf.insertSublayer(root, below: nil)
        leaf.insertSublayer(root, above: nil)
        leaf.sublayers = [root, middle]
        leaf.mask = root
        let child = CALayer()
        leaf.addSublayer(child)
        leaf.replaceSublayer(child, with: middle)
        // Nothing moved: the tree is still root > middle > leaf > child.
        #expect(root.superlayer == nil)
        #expect(middle.superlayer === root)
        #expect(leaf.superlayer === middle)
        #expect(leaf.sublayers?.count == 1 && leaf.sublayers?.first === child)
        #expect(leaf.mask == nil)
        #expect(leaf.isDescendant(of: root))
        #expect(!root.isDescendant(of: leaf))
    }

    @Test func aMaskHasTheMaskedLayerAsSuperlayer() {
        let layer = CALayer(), mask = CALayer()
        layer.mask = mask
        #expect(mask.superlayer === layer)
        #expect(mask.isMask)
        #expect(layer.sublayers == nil)
        mask.removeFromSuperlayer()
        #expect(layer.mask == nil)
        #expect(mask.superlayer == nil)
    }

    @Test func aMaskAddedAsASublayerStopsBeingTheMask() {
        let layer = CALayer(), mask = CALayer(), other = CALayer()
        layer.mask = mask
        other.addSublayer(mask)
        #expect(layer.mask == nil)
        #expect(mask.superlayer === other)
        #expect(!mask.isMask)
    }

    @Test func aSublayerSetAsMaskLeavesTheSublayers() {
        let (parent, children) = parent(with: ["a", "b"])
        parent.mask = children[0]
        #expect(names(parent) == ["b"])
        #expect(children[0].superlayer === parent)
        let replacement = CALayer()
        parent.mask = replacement
        #expect(children[0].superlayer == nil)
    }

    @Test func aMaskOfADescendantCannotBeAnAncestor() {
        let root = CALayer(), child = CALayer(), mask = CALayer()
        root.addSublayer(child)
        child.mask = mask
        #expect(!mask.canAdd(root))
        #expect(!mask.canAdd(child))
        mask.addSublayer(root)
        #expect(root.superlayer == nil)
        #expect(mask.sublayers == nil)
    }

    /// A sublayer or mask held elsewhere outlives its superlayer, and then
    /// has none (the link to the superlayer is not a weak reference: the
    /// superlayer clears it as it goes).
    @Test func aLayerWhoseSuperlayerIsGoneHasNoSuperlayer() {
        let child = CALayer(), mask = CALayer(), grandchild = CALayer()
        do {
            let parent = CALayer()
            parent.addSublayer(child)
            parent.mask = mask
            child.addSublayer(grandchild)
            #expect(child.superlayer === parent && mask.superlayer === parent)
        }
        #expect(child.superlayer == nil && mask.superlayer == nil)
        #expect(!mask.isMask && child.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 1, y: 2))
        #expect(grandchild.superlayer === child)
        // A presentation copy's tree lets go of its layers in the same way.
        let kept: CALayer = {
            let root = CALayer()
            root.addSublayer(CALayer())
            return root.presentation(atTime: 0).sublayers![0]
        }()
        #expect(kept.superlayer == nil)
    }
}
