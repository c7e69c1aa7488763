"""pytest's ``-m`` and ``-k`` over planned cells, evaluated before anything boots.

``kcompat run`` passes ``-m``/``-k`` on to pytest, which selects the cells it runs.
Evaluated here first, with pytest's own expression grammar over the very marker
names the plugin gives each cell (``cell_marks``) and the names pytest matches a
keyword against (``cell_keywords``), an expression that selects nothing is one
line naming the nearest names instead of a run of nothing, and ``run --plan``
shows what a run would select.  This module is the harness's one use of pytest
(its expression parser only, which pytest has no public name for).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence

from ..errors import ConfigError
from .plan import PlannedCell

TEST_NODES = ("kcompat", "scenarios", "test_cells.py")
"""The names of the nodes above each cell's test in pytest's collection (packages, module): ``-k`` matches
them too."""
TEST_FUNCTION = "test_cell"
"""The test every cell parametrizes (src/kcompat/scenarios/test_cells.py): a cell's item is ``test_cell[<cell id>]``."""
_IDENT = re.compile(r"(?::?\w|:|\+|-|\.|\[|\]|\\|/)+")
"""An identifier of pytest's expression grammar (``_pytest.mark.expression``)."""
_WORDS = {"and", "or", "not", "True", "False", "None"}


def document_marker(kip: str) -> str:
    """A document's marker: ``KIP-525`` -> ``kip525``, ``DOCS-authorization`` -> ``docsauthorization``."""
    return kip.lower().replace("-", "")


def cell_marks(cell: PlannedCell) -> dict[str, tuple[str, ...]]:
    """The pytest marks a cell carries, name to arguments: its cluster's xdist group (cells sharing a cluster
    run on one worker), its document's marker (``-m kip525``) and its API's (``-m createtopics``)."""
    return {"xdist_group": (cell.cluster_key,), document_marker(cell.claim.kip): (), cell.claim.api.lower(): ()}


def cell_keywords(cell: PlannedCell) -> frozenset[str]:
    """The names pytest's ``-k`` matches a cell's item against (case-insensitive substrings): the item's and
    its parents' names, and its marker names."""
    return frozenset({*TEST_NODES, f"{TEST_FUNCTION}[{cell.cell.id}]", *cell_marks(cell)})


def _compiled(option: str, text: str) -> Callable[[Callable[..., bool]], bool]:
    from _pytest.mark.expression import Expression  # pytest's own grammar, so pytest selects the same cells

    try:
        return Expression.compile(text).evaluate
    except SyntaxError as exc:
        raise ConfigError(f"{option} {text!r}: at column {exc.offset}: {exc.msg}") from None


def _marked(cell: PlannedCell) -> Callable[..., bool]:
    names = cell_marks(cell)
    return lambda name, **kwargs: name in names and not kwargs  # kcompat's marks take no keyword arguments


def _named(cell: PlannedCell) -> Callable[..., bool]:
    names = [name.lower() for name in cell_keywords(cell)]

    def match(text: str, **kwargs: object) -> bool:
        if kwargs:
            raise ConfigError(f"-k {text!r}: keyword expressions take no call parameters")
        return any(text.lower() in name for name in names)

    return match


def select(cells: Sequence[PlannedCell], markexpr: str | None, keyword: str | None) -> list[PlannedCell]:
    """The cells pytest would select with ``-m markexpr -k keyword``; none is a one-line error naming the
    nearest marker names (``-m``) or names of the planned cells (``-k``)."""
    chosen = list(cells)
    for option, text, matcher in (("-m", markexpr, _marked), ("-k", keyword, _named)):
        if not text or not text.strip():
            continue  # as pytest: an empty expression selects everything
        evaluate = _compiled(option, text)
        kept = [cell for cell in chosen if evaluate(matcher(cell))]
        if not kept:
            raise ConfigError(_nothing(option, text, chosen, matcher))
        chosen = kept
    return chosen


def _vocabulary(option: str, cells: Sequence[PlannedCell]) -> list[str]:
    """The names an expression could have meant: marker names for ``-m``; for ``-k`` those and the claims'
    ids, their names alone and the clients."""
    marks = {name for cell in cells for name in cell_marks(cell)}
    if option == "-m":
        return sorted(marks)
    claims = {cell.claim.id for cell in cells}
    return sorted(marks | claims | {c.split("/", 1)[-1] for c in claims} | {cell.cell.client for cell in cells})


def _nothing(option: str, text: str, cells: Sequence[PlannedCell],
             matcher: Callable[[PlannedCell], Callable[..., bool]]) -> str:
    """Why ``option text`` selects none of ``cells``: the names it gives that match no cell, each with the
    nearest names that do."""
    vocabulary = _vocabulary(option, cells)
    unmatched = [name for name in dict.fromkeys(_IDENT.findall(text)) if name not in _WORDS
                 and not any(matcher(cell)(name) for cell in cells)]
    near = [f"{name!r} (nearest: {', '.join(difflib.get_close_matches(name, vocabulary, n=3, cutoff=0.5)) or 'none'})"
            for name in unmatched]
    said = f"; nothing matches {'; '.join(near)}" if near else ""
    return f"{option} {text!r} selects none of the {len(cells)} planned cells{said}"
