// Tests of LaminaRender.
import Testing
@testable import LaminaRender
