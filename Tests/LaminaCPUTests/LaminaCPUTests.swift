// Tests of LaminaCPU.
import Testing
@testable import LaminaCPU
