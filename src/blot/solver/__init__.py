"""Double-dummy solvers: every hand known, perfect play by every seat.

- Bazar Blot (:mod:`blot.solver.bazar`): the card points each team takes from the trick in
  progress on, and the value of every legal card of the seat to act.
- 3-5-8 (:mod:`blot.solver.three_five_eight`): the tricks one seat takes against the other two.

The hot loops are compiled with numba when it is installed (:mod:`blot.solver._jit`).
"""

from blot.solver._jit import COMPILED
from blot.solver.bazar import Solution, Solver, default_solver, solve

__all__ = ["COMPILED", "Solution", "Solver", "default_solver", "solve"]
