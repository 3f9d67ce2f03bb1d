"""What the fuzz suite throws (issue 11, item 15): arbitrary JSON, text, bytes, sizes and types,
mixed with near-valid values (cards, calls, bot levels, game names) so that the checks behind
the parsers are reached too. Example counts are small and fixed (``FUZZ``) so that the whole
suite stays fast on CI's two cores."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: The fuzz tests' settings: no deadline (a shared CI machine is slow at times), and the
#: module-scoped server the tests share is deliberate.
FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def examples(count: int) -> int:
    """``count`` examples, times ``$BLOT_FUZZ_SCALE`` (1 in CI; a larger scale searches longer)."""
    return count * int(os.environ.get("BLOT_FUZZ_SCALE", "1"))


CARDS = [f"{r}{s}" for r in ("7", "8", "9", "10", "J", "Q", "K", "A", "2", "T") for s in "SHDC♠♥"]
CALLS = ["pass", "contra", "redouble", "sevens", "8H", "12NT", "25S", "30C", "7H", "S", "NT", "X"]
WORDS = [
    "bazar-blot", "3-5-8", "chess", "league", "classic", "standard", "basic", "random", "heuristic",
    "pimc", "pimc:samples=1000000", "pimc:seconds=nan", "heuristic:boldness=abc", "cmd:true",
    "best", "none", "hello", "action", "ping", "", " ", "null", "-1", "0", "1e309", "NaN",
]  # fmt: skip

#: Text that tends to find bugs: control and odd characters, long runs, near-valid words.
TEXT = st.one_of(
    st.sampled_from(CARDS + CALLS + WORDS),
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=100, max_size=400),
)
NUMBERS = st.one_of(
    st.integers(),
    st.integers(-3, 40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 2, 3, 4, -1, 2**63, 10**400]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value (objects keyed by words of the protocol or any text)."""
    words = ["type", "action", "declare", "token", "since", "id", "seat", "level", "game", "name", "timer"]
    keys = st.one_of(st.sampled_from(words), st.text(max_size=8))
    return st.recursive(
        SCALARS,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)),
        max_leaves=max_leaves,
    )


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


#: A request or message body as bytes: JSON of any shape, text that is not JSON, deep nesting,
#: invalid UTF-8, or a body near and over the size cap.
BODIES = st.one_of(
    json_values().map(lambda v: _dumps(v).encode()),
    st.binary(max_size=64),
    st.integers(17, 3000).map(lambda n: deep(n).encode()),
    st.sampled_from([b"", b"{", b"\xff\xfe", b'{"a": NaN}', b"[1, 2", b"\x00" * 10]),
    st.integers(16_000, 17_000).map(lambda n: b'{"name": "' + b"x" * n + b'"}'),
)


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, allow_nan=True, ensure_ascii=False)
