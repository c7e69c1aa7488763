"""Removing the containers of harness processes that are gone.

Every container carries its owner's token (``io.kcompat.owner``, see
``kcompat.harness.reaper.owner_token``).  Two sweeps: ``remove_orphans`` for whatever
dead owners left (``kcompat brokers reap``, each pytest session), and
``remove_orphans_of`` for one owner, which the watchdog runs when its owner's
pipe closes (the owner may still be a zombie then, so liveness can't decide).
Reusable clusters that finished booting are kept by both: they belong to
whoever uses them next.
"""

from __future__ import annotations

from pathlib import Path

from ..reaper import owner_alive
from . import engine
from .reuse import abandoned


def remove_orphans(cache_dir: Path) -> list[str]:
    """Remove containers whose owner process is gone, except reusable clusters that finished booting."""
    return engine.remove_where(
        {engine.LABEL_OWNER: ""},
        lambda c: owner_alive(c.labels.get(engine.LABEL_OWNER, "")) or not abandoned(c, cache_dir))


def remove_orphans_of(owner: str, cache_dir: Path) -> list[str]:
    """The watchdog's sweep: every container of ``owner`` but finished reusable clusters."""
    return engine.remove_where({engine.LABEL_OWNER: owner}, lambda c: not abandoned(c, cache_dir))

