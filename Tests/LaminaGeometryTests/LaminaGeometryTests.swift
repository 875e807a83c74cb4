// Tests of LaminaGeometry.
import Testing
@testable import LaminaGeometry
