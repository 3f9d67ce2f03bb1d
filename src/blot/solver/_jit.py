"""The compiler switch of the solvers' hot loops.

The kernels are written in the small subset of Python that numba compiles (ints, flat arrays,
loops, direct recursion) and that also runs unchanged as plain Python. When numba is installed
(``pip install -e '.[dev]'`` or the ``fast`` extra) they are compiled on first use and cached
on disk (``cache=True``), so a process pays the JIT once and later processes load the machine
code in well under a second; without numba they run as ordinary Python, about a hundred times
slower. ``BLOT_NO_JIT=1`` forces plain Python (the tests use it to check that both agree).

numba checks a cached function against its own source file only, never against the files of
the functions it calls (the kernels call :mod:`blot.solver._search`): after an upgrade or a
checkout that changed ``_search.py`` alone, a kernel would load machine code built from the old
helpers, and with no bounds checks that can read past an array. So the cache lives in a folder
named by a digest of every source file of this package (:func:`cache_folder`): any change to
any of them starts a fresh one, and the folders other versions left are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
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


#: The prefix of the cache folders this package makes (one per version of its sources).
CACHE_PREFIX = "blot-solver-"


def sources_digest(package: Path) -> str:
    """A digest of the ``.py`` files of ``package``: their names and contents."""
    digest = hashlib.sha256()
    for path in sorted(package.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


#: Other versions' cache folders are removed once untouched this long (a process started before
#: a checkout may still be compiling into its own).
STALE_SECONDS = 3600


def cache_folder(package: Path, bases: list[Path]) -> Path | None:
    """The folder for the machine code of ``package``'s present sources: in the first of
    ``bases`` that can hold it, named by :func:`sources_digest`; the stale folders of other
    versions there are removed. None when no base is writable (numba then picks its own place)."""
    name = CACHE_PREFIX + sources_digest(package)
    for base in bases:
        folder = base / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if not os.access(folder, os.W_OK):
            continue
        for other in base.glob(CACHE_PREFIX + "*"):
            try:
                stale = other.name != name and time.time() - other.stat().st_mtime > STALE_SECONDS
            except OSError:  # removed meanwhile by another process
                continue
            if stale:
                shutil.rmtree(other, ignore_errors=True)
        return folder
    return None


def _cache_bases() -> list[Path]:
    """numba's cache folder when the user set one (``NUMBA_CACHE_DIR``), else this package's
    ``__pycache__`` and then the user's cache folder (for an installation it cannot write to)."""
    if numba is not None and numba.config.CACHE_DIR:
        return [Path(numba.config.CACHE_DIR)]
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return [Path(__file__).parent / "__pycache__", user / "blot"]


CACHE: Path | None = cache_folder(Path(__file__).parent, _cache_bases()) if COMPILED else None


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (no Python objects, cached on disk in :data:`CACHE`), or return
    it as it is.

    Without numba's reference counting (``_nrt=False``): the kernels only index the arrays they
    are given and never allocate one, and with it every call of a helper that takes an array
    (even inlined) counts references with atomic instructions, which took over half of the
    search's time (measured with perf). A kernel that allocated would fail to compile, not
    misbehave."""
    if not COMPILED:
        return fn
    # numba chooses a function's cache folder when it is decorated, from its configuration
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(CACHE) if CACHE is not None else saved
    try:
        return cast(F, numba.njit(cache=True, nogil=True, _nrt=False)(fn))
    finally:
        numba.config.CACHE_DIR = saved


def int_array(size: int) -> Any:
    """A flat array of ``size`` zeros that the kernels index: int64 for numba, a list otherwise."""
    if COMPILED:
        return numpy.zeros(size, dtype=numpy.int64)
    return [0] * size


def int_array_of(values: list[int]) -> Any:
    if COMPILED:
        return numpy.array(values, dtype=numpy.int64)
    return list(values)


_announced = False


def is_cold(module: ModuleType) -> bool:
    """True when a compiled kernel of ``module`` has no up-to-date cache file yet, so that its
    first call compiles (about 20 s). Reads numba's cache index: numba's own freshness test where
    it has one (numba 0.60 and later stamp the source by its content, so a checkout that rewrites
    a kernel unchanged leaves it warm), else the index's time against the source's; False when
    the index cannot be found (a numba without it, or no numba)."""
    if not COMPILED:
        return False
    try:
        for value in vars(module).values():
            cache = getattr(value, "_cache", None)
            if cache is None or not hasattr(value, "py_func"):
                continue
            cache_file = cache._cache_file
            index = cache_file._index_path
            if not os.path.exists(index):
                return True
            fresh = getattr(cache_file, "_load_index", None)
            if fresh is not None:
                if not fresh():
                    return True
            elif os.path.getmtime(index) < os.path.getmtime(value.py_func.__code__.co_filename):
                return True
    except (AttributeError, OSError):
        return False
    return False


def warn_if_cold(module: ModuleType) -> None:
    """Say (:mod:`blot.notice`, once per process) that the solver is about to be compiled."""
    global _announced
    from blot import notice

    if notice.hook is not None and not _announced and is_cold(module):
        _announced = True
        notice.notice("compiling the solver once, about 20 s (later runs load it at once)")


def _bit_intrinsics() -> tuple[Any, Any]:
    """LLVM's count-trailing-zeros and population-count instructions as numba intrinsics: one
    machine instruction each, where a table lookup or a loop cost the search a fifth of its time
    (measured: the slowest no-trump deal of ``benchmarks/solver.py``, 270 ms to 215 ms)."""
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import types
    from numba.extending import intrinsic

    def cttz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return types.int64(types.int64), codegen

    def ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    return intrinsic(cttz), intrinsic(ctpop)


if COMPILED:  # pragma: no cover - depends on the environment
    _cttz, _ctpop = _bit_intrinsics()

    @jit
    def lowest_bit(x: int) -> int:
        """The index of the lowest set bit of ``x`` (> 0)."""
        return int(_cttz(x))

    @jit
    def bit_count(x: int) -> int:
        """The number of set bits of ``x`` (>= 0)."""
        return int(_ctpop(x))

else:

    def lowest_bit(x: int) -> int:
        """The index of the lowest set bit of ``x`` (> 0)."""
        return (x & -x).bit_length() - 1

    def bit_count(x: int) -> int:
        """The number of set bits of ``x`` (>= 0)."""
        return x.bit_count()


@jit
def highest_bit(x: int) -> int:
    """The index of the highest set bit of ``x`` (> 0)."""
    while x & (x - 1):
        x &= x - 1
    return lowest_bit(x)
