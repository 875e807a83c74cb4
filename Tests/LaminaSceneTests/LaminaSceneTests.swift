// Tests of LaminaScene.
import Testing
@testable import LaminaScene
