// Tests of LaminaGL.
import Testing
@testable import LaminaGL
