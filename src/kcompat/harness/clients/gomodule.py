"""Go adapter programs built against one release of a Go module, from the Go module proxy, into the cache.

An adapter kind whose client library is a Go module (franz-go, sarama) ships
its program's source in its package (``kinds/<kind>/adapter/main.go``); this
module builds it once per release with the installed Go: a ``go.mod`` it
writes names the library at that release, ``go build`` (``-mod=mod``) resolves
the rest through the module proxy and checks every module against go.sum and
the checksum database as Go does by default.  Everything Go writes (module
cache, build cache, its config and telemetry) stays under
``config.cache_dir / "adapters"``; nothing goes into the repository or ``~``.
Every adapter's module also holds the kit the Go adapters share (``gokit/``
beside this module, package ``kcompat/adapter/kit``), copied in at each build.
A build is guarded by a file lock (two xdist workers installing at once build
once), bounded in time, logged next to the binary, and stamped with a digest of
its inputs so that a changed adapter source is built again.

A release is checked against what the proxy publishes (``go list -m
-versions``), cached, and asked again only when the cache lacks the release:
one that isn't published is one line naming the nearest published releases.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ..config import HarnessConfig
from ..errors import ConfigError, HarnessError
from ..locking import exclusive
from ..progress import report

GO_INSTALL = ("install Go, as new as the library release's go.mod asks (the `go` command on PATH: go.dev/dl, or "
              "apt-get install golang-go)")
LIST_TIMEOUT = 120.0
BUILD_TIMEOUT = 900.0
"""A first build downloads the library and compiles it with its dependencies: minutes on two shared cores."""
PUBLISHED_MAX_AGE = 6 * 3600.0
"""Seconds a cached list of published releases answers before the proxy is asked again (a release published
since is found then, or at once by ``check_release``)."""
_RELEASE = re.compile(r"(\d+)\.(\d+)\.(\d+)")
KIT = Path(__file__).resolve().parent / "gokit"
"""The Go adapters' shared package: the protocol loop, result types, the recording connection, Kafka's error
names; built into each adapter's module as ``kcompat/adapter/kit``."""


def go_root(config: HarnessConfig) -> Path:
    return config.cache_dir / "adapters" / "go"


def go_command() -> str:
    """The ``go`` on PATH; a one-line ConfigError naming what to install when there is none."""
    found = shutil.which("go")
    if found is None:
        raise ConfigError(f"no Go toolchain found to build a Go adapter: {GO_INSTALL}")
    return found


def go_environment(config: HarnessConfig) -> dict[str, str]:
    """The environment of every go command here: caches, config and telemetry under the cache, the module
    mode that lets go.mod be completed, the installed toolchain only (no download of another)."""
    root = go_root(config)
    env = dict(os.environ)
    env.update({"GOMODCACHE": str(root / "mod"), "GOCACHE": str(root / "build"), "GOPATH": str(root / "path"),
                "XDG_CONFIG_HOME": str(root / "config"), "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local",
                "GOTELEMETRY": "off", "CGO_ENABLED": "0"})
    if config.offline:  # the module cache alone: a module it lacks is one clear error, not a network wait
        env["GOPROXY"] = "off"
    return env


def run_go(args: Sequence[str], config: HarnessConfig, *, cwd: Path, timeout: float, what: str,
           log: Path | None = None) -> str:
    """``go <args>``'s stdout; a HarnessError naming ``what`` (and the log, when one is kept) if it fails or
    outlasts ``timeout``."""
    command = [go_command(), *args]
    try:
        done = subprocess.run(command, cwd=cwd, env=go_environment(config), capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        raise HarnessError(f"{what}: `go {' '.join(args)}` ran past {timeout:.0f}s", log=log) from exc
    if log is not None:
        with log.open("a") as out:
            out.write(f"$ go {' '.join(args)}\n{done.stdout}{done.stderr}")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        if "requires go >=" in done.stderr:  # the release needs a newer Go than the installed one
            raise ConfigError(f"{what}: {last}: {GO_INSTALL}")
        raise HarnessError(f"{what}: `go {' '.join(args)}` exited {done.returncode}: {last}", log=log)
    return done.stdout


def go_version() -> tuple[int, int]:
    """The installed Go's (major, minor), from ``go env GOVERSION`` (``go1.26.8``)."""
    done = subprocess.run([go_command(), "env", "GOVERSION"], capture_output=True, text=True, timeout=60, check=False)
    found = re.match(r"go(\d+)\.(\d+)", done.stdout.strip())
    if found is None:
        raise ConfigError(f"can't read the installed Go's version ({done.stdout.strip() or done.stderr.strip()}): "
                          f"{GO_INSTALL}")
    return int(found.group(1)), int(found.group(2))


def release_key(release: str) -> tuple[int, ...]:
    """A plain release (``1.22.2``) as a sortable tuple; ConfigError for anything else (it becomes a path)."""
    found = _RELEASE.fullmatch(release) if isinstance(release, str) else None
    if found is None:
        raise ConfigError(f"release {release!r} is not a plain release like 1.22.2")
    return tuple(int(part) for part in found.groups())


def plain_releases(tags: Sequence[str]) -> tuple[str, ...]:
    """The plain releases among a module's version tags (``v1.22.2`` -> ``1.22.2``; pre-releases left out),
    oldest first."""
    plain = {tag.removeprefix("v") for tag in tags if _RELEASE.fullmatch(tag.removeprefix("v"))}
    return tuple(sorted(plain, key=release_key))


def nearest(release: str, published: Sequence[str], count: int = 2) -> list[str]:
    """Up to ``count`` published releases either side of ``release``, in release order."""
    wanted = release_key(release)
    ordered = sorted(published, key=release_key)
    below = [r for r in ordered if release_key(r) < wanted][-count:]
    above = [r for r in ordered if release_key(r) > wanted][:count]
    return [*below, *above]


def _published_path(module: str, config: HarnessConfig) -> Path:
    return go_root(config) / "published" / (module.replace("/", "+") + ".json")


def list_versions(module: str, config: HarnessConfig) -> tuple[str, ...]:
    """What the module proxy publishes of ``module`` now (``go list -m -versions``), plain releases only."""
    work = go_root(config) / "list"
    work.mkdir(parents=True, exist_ok=True)
    out = run_go(["list", "-m", "-versions", "-json", module], config, cwd=work, timeout=LIST_TIMEOUT,
                 what=f"listing the published releases of {module}")
    try:
        tags = json.loads(out).get("Versions") or []
    except ValueError as exc:
        raise HarnessError(f"`go list -m -versions -json {module}` printed no JSON: {out[:120]!r}") from exc
    return plain_releases([str(tag) for tag in tags])


Lister = Callable[[str, HarnessConfig], tuple[str, ...]]
"""(module, config) -> the plain releases the proxy publishes now: ``list_versions``, or a test's stand-in."""


def published(module: str, config: HarnessConfig, *, refresh: bool = False,
              lister: Lister = list_versions) -> tuple[str, ...]:
    """The releases of ``module`` the proxy publishes: the cached list while it is younger than
    ``PUBLISHED_MAX_AGE``, else (online; or ``refresh``) a fresh one, cached.  A list that can't be had fresh
    falls back to the cached one; offline, the cached one (or none) is all there is."""
    cached = _published_path(module, config)
    try:
        known: tuple[str, ...] | None = tuple(json.loads(cached.read_text()))
        fresh = time.time() - cached.stat().st_mtime < PUBLISHED_MAX_AGE
    except (OSError, ValueError):
        known, fresh = None, False
    if config.offline or (known is not None and fresh and not refresh):
        return known or ()
    try:
        releases = lister(module, config)
    except HarnessError:
        if known is None:
            raise
        return known
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    partial.write_text(json.dumps(list(releases)))
    partial.replace(cached)
    return releases


def check_release(library: str, module: str, release: str, config: HarnessConfig, *,
                  lister: Lister = list_versions) -> str:
    """``release`` if the proxy publishes ``module`` at it; else a one-line ConfigError naming the nearest
    published ones.  Offline with no cached list, it passes (the build then says)."""
    release_key(release)
    for refresh in (False, True):
        releases = published(module, config, refresh=refresh, lister=lister)
        if release in releases:
            return release
        if config.offline:
            if not releases:
                return release
            break
    near = ", ".join(nearest(release, releases)) or "none"
    raise ConfigError(f"{library} {release} is not published; nearest: {near}")


def module_file(module: str, version: str, config: HarnessConfig) -> str:
    """The go.mod of ``module`` at ``version`` (``go list -m``: only that file is fetched, not the module)."""
    work = go_root(config) / "list"
    work.mkdir(parents=True, exist_ok=True)
    out = run_go(["list", "-m", "-json", f"{module}@{version}"], config, cwd=work, timeout=LIST_TIMEOUT,
                 what=f"reading the go.mod of {module}@{version}")
    try:
        path = json.loads(out)["GoMod"]
        text: str = Path(path).read_text()
    except (ValueError, KeyError, OSError) as exc:
        raise HarnessError(f"`go list -m -json {module}@{version}` gave no go.mod: {out[:120]!r}") from exc
    return text


def requirement(go_mod: str, module: str) -> str | None:
    """The version a go.mod requires of ``module`` (``v1.22.0``), if it names it."""
    found = re.search(rf"^\s*(?:require\s+)?{re.escape(module)}\s+(v\S+)", go_mod, re.MULTILINE)
    return found.group(1) if found else None


def go_directive(go_mod: str) -> tuple[int, int]:
    """The Go version a go.mod declares (``go 1.26.0`` -> (1, 26)); (1, 0) where it declares none."""
    found = re.search(r"^go\s+(\d+)\.(\d+)", go_mod, re.MULTILINE)
    return (int(found.group(1)), int(found.group(2))) if found else (1, 0)


def build(kind: str, release: str, requires: Mapping[str, str], sources: Path, config: HarnessConfig, *,
          replace: Mapping[str, str] | None = None, tags: Sequence[str] = ()) -> Path:
    """The adapter binary of ``kind`` at ``release``, built from ``sources`` (a directory of .go files) with
    ``requires`` (module -> version, ``v``-prefixed) in its go.mod, once: a second call, or another worker's
    build, is reused while its stamp (the sources, the go.mod, the tags) is unchanged.  After the build, every
    required module must resolve to the version asked (``go list -m``): Go's minimal version selection may
    raise one to what another requires, and a binary built with another release than the one named would
    misname every verdict.

    ``replace`` (module -> ``other/path version``) builds a release published under an older module path with
    the sources' import path (go.mod's ``replace``, which Go accepts where the replacement declares its own
    path); ``tags`` are build constraints that pick the sources written for an older API."""
    release_key(release)
    home = config.cache_dir / "adapters" / f"{kind}-{release}"
    binary = home / "adapter"
    major, minor = go_version()
    go_mod = "module kcompat/adapter\n\ngo %d.%d\n\nrequire (\n%s)\n%s" % (
        major, minor, "".join(f"\t{module} {version}\n" for module, version in sorted(requires.items())),
        "".join(f"\nreplace {module} => {target}\n" for module, target in sorted((replace or {}).items())))
    stamp = _stamp(sources, go_mod + "".join(f"\ntag {tag}" for tag in tags))
    if _built(home, stamp):
        return binary
    home.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(home, timeout=BUILD_TIMEOUT + 60, waiting_for=f"to build the {kind} {release} adapter"):
        if _built(home, stamp):
            return binary
        _build(kind, release, requires, sources, go_mod, home, config, tags)
        (home / "stamp").write_text(stamp)
    return binary


def _stamp(sources: Path, go_mod: str) -> str:
    """A digest of the build's inputs: the go.mod, the adapter's sources and the kit's (a changed kit rebuilds)."""
    digest = hashlib.sha256(go_mod.encode())
    for source in [*sorted(sources.glob("*.go")), *sorted(KIT.glob("*.go"))]:
        digest.update(f"{source.parent.name}/{source.name}".encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def _built(home: Path, stamp: str) -> bool:
    try:
        return (home / "adapter").is_file() and (home / "stamp").read_text() == stamp
    except OSError:
        return False


def _build(kind: str, release: str, requires: Mapping[str, str], sources: Path, go_mod: str, home: Path,
           config: HarnessConfig, tags: Sequence[str]) -> None:
    what = f"building the {kind} {release} adapter"
    shutil.rmtree(home, ignore_errors=True)
    src = home / "src"
    src.mkdir(parents=True)
    log = home / "build.log"
    for source in sources.glob("*.go"):
        shutil.copy2(source, src / source.name)
    (src / "kit").mkdir()
    for source in KIT.glob("*.go"):
        shutil.copy2(source, src / "kit" / source.name)
    (src / "go.mod").write_text(go_mod)
    report("go mod tidy: fetching modules (1/3)", log=log)
    run_go(["mod", "tidy"], config, cwd=src, timeout=BUILD_TIMEOUT, what=what, log=log)
    report("checking the resolved versions (2/3)")
    for module, version in requires.items():
        resolved = run_go(["list", "-m", "-f", "{{.Version}}", module], config, cwd=src, timeout=LIST_TIMEOUT,
                          what=what, log=log).strip()
        if resolved != version:
            raise HarnessError(f"{what}: {module} resolved to {resolved}, not {version} (another module requires a "
                               "newer one)", log=log)
    report("go build (3/3)")
    run_go(["build", "-trimpath", *(["-tags", ",".join(tags)] if tags else []), "-o", str(home / "adapter.partial"),
            "."], config, cwd=src,
           timeout=BUILD_TIMEOUT, what=what, log=log)
    (home / "adapter.partial").replace(home / "adapter")


__all__ = ["KIT", "build", "check_release", "go_command", "go_directive", "go_environment", "go_version", "module_file",
           "nearest", "plain_releases", "published", "release_key", "requirement"]
