// Tests of LaminaPNG.
import Testing
@testable import LaminaPNG
