// Tests of LaminaCore.
import Testing
@testable import LaminaCore
