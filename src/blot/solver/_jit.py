"""The compiler switch of the solvers' hot loops.

The kernels are written in the small subset of Python that numba compiles (ints, flat arrays,
loops, direct recursion) and that also runs unchanged as plain Python. When numba is installed
(``pip install -e '.[dev]'`` or the ``fast`` extra) they are compiled on first use and cached
on disk (``cache=True``), so a process pays the JIT once and later processes load the machine
code in well under a second; without numba they run as ordinary Python, about a hundred times
slower. ``BLOT_NO_JIT=1`` forces plain Python (the tests use it to check that both agree).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

numba: Any = None
numpy: Any = None
COMPILED = False
if not os.environ.get("BLOT_NO_JIT"):
    try:  # pragma: no cover - depends on the environment
        import numba
        import numpy

        COMPILED = True
    except ImportError:  # pragma: no cover
        pass


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (no Python objects, cached on disk), or return it as it is."""
    if not COMPILED:
        return fn
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def int_array(size: int) -> Any:
    """A flat array of ``size`` zeros that the kernels index: int64 for numba, a list otherwise."""
    if COMPILED:
        return numpy.zeros(size, dtype=numpy.int64)
    return [0] * size


def int_array_of(values: list[int]) -> Any:
    if COMPILED:
        return numpy.array(values, dtype=numpy.int64)
    return list(values)
