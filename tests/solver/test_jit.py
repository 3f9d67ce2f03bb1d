"""Where the compiled kernels are cached (:mod:`blot.solver._jit`): numba checks a cached
function against its own file only, so the cache folder is named by every solver source."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from blot.solver import _jit


def _package(folder: Path) -> Path:
    folder.mkdir()
    (folder / "kernel.py").write_text("from blot.solver import _search\n")
    (folder / "_search.py").write_text("WIDTH = 10\n")
    return folder


def test_a_change_to_any_source_gives_a_new_cache_folder_and_the_stale_ones_go(tmp_path: Path) -> None:
    package = _package(tmp_path / "solver")
    base = tmp_path / "cache"
    first = _jit.cache_folder(package, [base])
    assert first is not None and first.is_dir() and first.name.startswith(_jit.CACHE_PREFIX)
    (package / "_search.py").write_text("WIDTH = 10\n")  # rewritten unchanged: the same folder
    assert _jit.cache_folder(package, [base]) == first
    (package / "_search.py").write_text("WIDTH = 11\n")  # only the helpers the kernel calls changed
    second = _jit.cache_folder(package, [base])
    assert second is not None and second != first and second.is_dir()
    assert first.exists()  # still fresh: a process of that version may be compiling into it
    old = time.time() - _jit.STALE_SECONDS - 60
    os.utime(first, (old, old))
    assert _jit.cache_folder(package, [base]) == second
    assert not first.exists()


def test_an_unwritable_place_is_passed_over(tmp_path: Path) -> None:
    package = _package(tmp_path / "solver")
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    folder = _jit.cache_folder(package, [blocked, tmp_path / "cache"])
    assert folder is not None and folder.parent == tmp_path / "cache"
    assert _jit.cache_folder(package, [blocked]) is None


@pytest.mark.skipif(not _jit.COMPILED, reason="numba is not installed (the kernels run as Python)")
def test_the_kernels_are_cached_in_the_folder_of_the_present_sources() -> None:
    import numba

    from blot.solver import _search, bazar_kernel, tfe_kernel

    assert _jit.CACHE is not None
    assert _jit.CACHE.name == _jit.CACHE_PREFIX + _jit.sources_digest(Path(_jit.__file__).parent)
    for kernel in (bazar_kernel.search, tfe_kernel.search, _search.root_next):
        assert Path(kernel._cache._cache_path).is_relative_to(_jit.CACHE)
    assert str(_jit.CACHE) != numba.config.CACHE_DIR  # numba's own setting is left as it was
