"""The franz-go adapter (``adapter/main.go``: its admin package kadm) built for one franz-go release.

kadm (``github.com/twmb/franz-go/pkg/kadm``) is a module of its own with its
own releases.  The pairing rule: for franz-go X, the newest published kadm whose
go.mod requires franz-go at or below X (and a Go the installed one can build).
A newer kadm would make Go's minimal version selection raise franz-go past X,
and the cell would name a release it did not run; an older one than the newest
that fits would leave out what kadm had already made of X's requests.  kmsg
(the protocol messages) is what franz-go X and that kadm require, the higher of
the two; the adapter's ready line reports the kadm and kmsg it was built with.
"""

from __future__ import annotations

from pathlib import Path

from ....config import HarnessConfig
from ....errors import ConfigError
from ....progress import report
from ... import gomodule

LIBRARY = "franz-go"
MODULE = "github.com/twmb/franz-go"
KADM = "github.com/twmb/franz-go/pkg/kadm"
SOURCES = Path(__file__).resolve().parent / "adapter"
SHARED_SOURCES = (gomodule.KIT,)
"""What the program shares with the other Go adapters: its digest is part of the program's."""


def published(config: HarnessConfig) -> tuple[str, ...]:
    """The franz-go releases the Go module proxy publishes (cached under ``config.cache_dir``)."""
    return gomodule.published(MODULE, config)


def check_release(release: str, config: HarnessConfig) -> str:
    """``release`` if published; else one line naming the nearest published releases."""
    return gomodule.check_release(LIBRARY, MODULE, release, config)


def pick_kadm(release: str, kadm_releases: tuple[str, ...], requirements: dict[str, tuple[str | None, tuple[int, int]]],
              go: tuple[int, int]) -> str | None:
    """The pairing rule on known facts: of ``kadm_releases`` (oldest first), the newest whose go.mod (its
    franz-go requirement and go directive, in ``requirements``) fits franz-go ``release`` and Go ``go``."""
    wanted = gomodule.release_key(release)
    for kadm in reversed(kadm_releases):
        required, directive = requirements[kadm]
        if required is not None and gomodule.release_key(required.removeprefix("v")) <= wanted and directive <= go:
            return kadm
    return None


def kadm_for(release: str, config: HarnessConfig) -> str:
    """The kadm release paired with franz-go ``release``: read once from kadm's go.mod files (newest first,
    until one fits) and kept in the cache, so a second install asks nothing."""
    kept = config.cache_dir / "adapters" / f"{LIBRARY}-{release}.kadm"
    try:
        paired = kept.read_text().strip()
        gomodule.release_key(paired)  # a damaged file is read again from the proxy
        return paired
    except (OSError, ConfigError):
        pass
    releases = gomodule.published(KADM, config, refresh=True)  # a pairing is made once: from the list of now
    go = gomodule.go_version()
    for kadm in reversed(releases):
        report(f"pairing a kadm release: reading kadm {kadm}'s go.mod")
        go_mod = gomodule.module_file(KADM, f"v{kadm}", config)
        facts = {kadm: (gomodule.requirement(go_mod, MODULE), gomodule.go_directive(go_mod))}
        if pick_kadm(release, (kadm,), facts, go) is not None:
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_text(kadm)
            return kadm
    raise ConfigError(f"no published kadm release builds with franz-go {release} and Go {go[0]}.{go[1]} "
                      f"(kadm releases: {', '.join(releases) or 'none'})")


def install(release: str, config: HarnessConfig) -> tuple[list[str], dict[str, str]]:
    """The argv and extra environment that start the adapter for franz-go ``release``, built once into
    ``config.cache_dir / "adapters" / "franz-go-<release>"``."""
    check_release(release, config)
    kadm = kadm_for(release, config)
    binary = gomodule.build(LIBRARY, release, {MODULE: f"v{release}", KADM: f"v{kadm}"}, SOURCES, config)
    return [str(binary)], {}
