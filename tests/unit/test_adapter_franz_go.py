"""The franz-go installer's pure logic: release names, the published list and its cache, the nearest releases a
missing one is answered with, the kadm pairing rule, and the one line a missing Go gets."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from kcompat.harness import ConfigError, HarnessConfig, HarnessError
from kcompat.harness.clients import gomodule
from kcompat.harness.clients.kinds.franz_go import install

SERVED = ("1.20.7", "1.21.7", "1.22.0", "1.22.1", "1.22.2", "1.22.3")


def _config(tmp_path, *, offline: bool = False) -> HarnessConfig:
    return HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs", offline=offline)


class Lister:
    """The proxy's answer to ``go list -m -versions``, counting how often it is asked."""

    def __init__(self, releases: tuple[str, ...] = SERVED):
        self.releases = releases
        self.asked = 0

    def __call__(self, module: str, config: HarnessConfig) -> tuple[str, ...]:
        self.asked += 1
        return self.releases


def test_plain_releases_drop_pre_releases_and_sort_numerically() -> None:
    tags = ["v1.9.0", "v1.10.0", "v1.10.0-rc1", "v1.2.3", "v2.0.0+incompatible"]
    assert gomodule.plain_releases(tags) == ("1.2.3", "1.9.0", "1.10.0")


@pytest.mark.parametrize("bad", ["1.22", "v1.22.2", "1.22.2-rc1", "../1.0.0", ""])
def test_a_release_that_is_not_plain_is_refused_before_it_becomes_a_path(bad: str) -> None:
    with pytest.raises(ConfigError, match="is not a plain release"):
        gomodule.release_key(bad)


def test_nearest_releases_either_side_in_order() -> None:
    assert gomodule.nearest("1.22.9", SERVED) == ["1.22.2", "1.22.3"]
    assert gomodule.nearest("1.21.9", SERVED) == ["1.20.7", "1.21.7", "1.22.0", "1.22.1"]
    assert gomodule.nearest("0.1.0", SERVED) == ["1.20.7", "1.21.7"]


def test_a_published_release_passes_and_the_list_is_cached(tmp_path) -> None:
    lister, config = Lister(), _config(tmp_path)
    assert gomodule.check_release("franz-go", install.MODULE, "1.22.2", config, lister=lister) == "1.22.2"
    assert gomodule.check_release("franz-go", install.MODULE, "1.21.7", config, lister=lister) == "1.21.7"
    assert lister.asked == 1  # the second answer came from the cache
    assert gomodule.published(install.MODULE, config, lister=lister) == SERVED


def test_a_missing_release_is_one_line_naming_the_nearest_after_one_fresh_look(tmp_path) -> None:
    lister, config = Lister(), _config(tmp_path)
    gomodule.published(install.MODULE, config, lister=lister)
    with pytest.raises(ConfigError) as raised:
        gomodule.check_release("franz-go", install.MODULE, "1.22.9", config, lister=lister)
    assert str(raised.value) == "franz-go 1.22.9 is not published; nearest: 1.22.2, 1.22.3"
    assert lister.asked == 2  # the cache lacked it: asked again once before saying no


def test_a_release_published_since_the_list_was_cached_is_found(tmp_path) -> None:
    config = _config(tmp_path)
    gomodule.published(install.MODULE, config, lister=Lister(SERVED[:-1]))
    assert gomodule.check_release("franz-go", install.MODULE, "1.22.3", config, lister=Lister()) == "1.22.3"


def test_offline_the_cached_list_decides_and_none_cached_lets_the_release_through(tmp_path) -> None:
    lister = Lister()
    offline = _config(tmp_path, offline=True)
    assert gomodule.check_release("franz-go", install.MODULE, "9.9.9", offline, lister=lister) == "9.9.9"
    gomodule.published(install.MODULE, _config(tmp_path), lister=lister)
    with pytest.raises(ConfigError, match="nearest: 1.22.2, 1.22.3"):
        gomodule.check_release("franz-go", install.MODULE, "1.22.9", offline, lister=lister)
    assert lister.asked == 1  # offline: never asked


KADM_GO_MODS = {
    "1.17.2": "module github.com/twmb/franz-go/pkg/kadm\n\ngo 1.24.0\n\nrequire (\n"
              "\tgithub.com/twmb/franz-go v1.20.4\n\tgithub.com/twmb/franz-go/pkg/kmsg v1.12.0\n)\n",
    "1.18.0": "module github.com/twmb/franz-go/pkg/kadm\n\ngo 1.25.0\n\nrequire (\n"
              "\tgithub.com/twmb/franz-go v1.21.0\n\tgithub.com/twmb/franz-go/pkg/kmsg v1.13.1\n)\n",
    "1.19.0": "module github.com/twmb/franz-go/pkg/kadm\n\ngo 1.26.0\n\nrequire github.com/twmb/franz-go v1.22.0\n",
}
FACTS = {kadm: (gomodule.requirement(text, install.MODULE), gomodule.go_directive(text))
         for kadm, text in KADM_GO_MODS.items()}


def test_go_mod_facts_are_read_from_either_require_form() -> None:
    assert FACTS["1.18.0"] == ("v1.21.0", (1, 25))
    assert FACTS["1.19.0"] == ("v1.22.0", (1, 26))
    assert gomodule.requirement(KADM_GO_MODS["1.17.2"], "github.com/twmb/franz-go/pkg/kmsg") == "v1.12.0"
    assert gomodule.requirement("module x\n", install.MODULE) is None


@pytest.mark.parametrize(("franz_go", "go", "kadm"), [
    ("1.22.2", (1, 26), "1.19.0"),  # the newest kadm whose franz-go requirement fits
    ("1.22.0", (1, 26), "1.19.0"),  # a requirement equal to the release fits
    ("1.21.7", (1, 26), "1.18.0"),  # 1.19.0 would raise franz-go to 1.22.0
    ("1.22.2", (1, 25), "1.18.0"),  # 1.19.0 needs a newer Go than the installed one
    ("1.20.0", (1, 26), None),      # every kadm requires a newer franz-go
])
def test_the_kadm_pairing_rule(franz_go: str, go: tuple[int, int], kadm: str | None) -> None:
    assert install.pick_kadm(franz_go, tuple(KADM_GO_MODS), FACTS, go) == kadm


def test_a_missing_go_toolchain_is_one_line_naming_what_to_install(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(gomodule.shutil, "which", lambda name: None)
    with pytest.raises(ConfigError) as raised:
        install.install("1.22.2", _config(tmp_path))
    assert "\n" not in str(raised.value)
    assert "no Go toolchain" in str(raised.value) and "install Go" in str(raised.value)


def test_go_writes_only_under_the_cache(tmp_path) -> None:
    env = gomodule.go_environment(_config(tmp_path))
    for name in ("GOMODCACHE", "GOCACHE", "GOPATH", "XDG_CONFIG_HOME"):
        assert env[name].startswith(str(tmp_path / "cache")), name
    assert env["GOFLAGS"] == "-mod=mod" and env["GOTOOLCHAIN"] == "local"


def test_the_adapter_sources_ship_as_package_data() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "clients/kinds/*/adapter/*.go" in data["kcompat.harness"]
    assert (install.SOURCES / "main.go").is_file()


def test_the_kind_refuses_an_unpublished_release_in_one_line_before_anything_boots(tmp_path) -> None:
    from kcompat.harness.clients import ClientRef, kind

    config = _config(tmp_path)
    gomodule.published(install.MODULE, config, lister=Lister())  # cached: the kind's check asks nothing else
    assert kind("franz-go").check_release is not None
    assert kind("franz-go").check_release("1.22.2", config) == "1.22.2"
    with pytest.raises(ConfigError, match=r"^franz-go 1\.22\.9 is not published; nearest releases: 1\.22\.2, 1\.22\.3$"):
        kind("franz-go").check_release("1.22.9", config)
    assert str(ClientRef.parse("franz-go:1.22.2")) == "franz-go:1.22.2"
    assert kind("franz-go").refuses("errBrokerTooOld", None) and kind("sarama").refuses("KError", "UNSUPPORTED_VERSION")


FAKE_GO = """#!/bin/sh
# A stand-in for go: builds count themselves and take a second; `list -m` answers $FAKE_RESOLVED.
case "$1" in
  env) echo go1.26.0 ;;
  mod) ;;
  list) echo "$FAKE_RESOLVED" ;;
  build) echo build >> "$FAKE_BUILDS"; sleep 1; echo binary > "$4" ;;
esac
"""


def _fake_go(tmp_path, monkeypatch, resolved: str = "v1.22.2"):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "go").write_text(FAKE_GO)
    (bin_dir / "go").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_RESOLVED", resolved)
    monkeypatch.setenv("FAKE_BUILDS", str(tmp_path / "builds"))
    sources = tmp_path / "adapter"
    sources.mkdir()
    (sources / "main.go").write_text("package main\n")
    return sources


def _build_once(cache: str, sources: str) -> str:
    config = HarnessConfig(cache_dir=Path(cache), run_root=Path(cache) / "runs")
    return str(gomodule.build("franz-go", "1.22.2", {install.MODULE: "v1.22.2"}, Path(sources), config))


def test_two_workers_installing_at_once_build_once_and_a_second_call_builds_nothing(tmp_path, monkeypatch) -> None:
    sources = _fake_go(tmp_path, monkeypatch)
    cache = tmp_path / "cache"
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        built = pool.starmap(_build_once, [(str(cache), str(sources))] * 2)
    assert built[0] == built[1] == str(cache / "adapters" / "franz-go-1.22.2" / "adapter")
    assert (tmp_path / "builds").read_text() == "build\n"  # the second worker waited, then found it built
    _build_once(str(cache), str(sources))
    assert (tmp_path / "builds").read_text() == "build\n"
    (sources / "main.go").write_text("package main // changed\n")
    _build_once(str(cache), str(sources))  # another adapter source: built again
    assert (tmp_path / "builds").read_text() == "build\nbuild\n"
    assert (cache / "adapters" / "franz-go-1.22.2" / "src" / "go.mod").read_text().startswith("module kcompat/adapter")


def test_a_library_raised_past_the_release_asked_is_refused(tmp_path, monkeypatch) -> None:
    sources = _fake_go(tmp_path, monkeypatch, resolved="v1.22.3")
    with pytest.raises(HarnessError, match=r"github.com/twmb/franz-go resolved to v1.22.3, not v1.22.2.*log: "):
        _build_once(str(tmp_path / "cache"), str(sources))
    assert not (tmp_path / "builds").exists()
