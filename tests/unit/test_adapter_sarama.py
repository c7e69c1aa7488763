"""The sarama installer's pure logic (release checks against the published list, the missing-Go line); the
error names it shares with the other Go adapters are the kit's (tests/unit/test_gokit.py)."""

from __future__ import annotations

import pytest

from kcompat.harness import ConfigError, HarnessConfig
from kcompat.harness.clients import gomodule
from kcompat.harness.clients.kinds.sarama import install

SERVED = ("1.50.3", "1.60.0", "1.60.1", "1.60.2", "1.61.0", "1.61.1")


def _config(tmp_path, *, offline: bool = False) -> HarnessConfig:
    return HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs", offline=offline)


def test_a_missing_sarama_release_names_the_nearest_published(tmp_path) -> None:
    def lister(module: str, config: HarnessConfig) -> tuple[str, ...]:
        assert module == "github.com/IBM/sarama"
        return SERVED

    config = _config(tmp_path)
    assert gomodule.check_release(install.LIBRARY, install.MODULE, "1.61.1", config, lister=lister) == "1.61.1"
    with pytest.raises(ConfigError) as raised:
        gomodule.check_release(install.LIBRARY, install.MODULE, "1.60.9", config, lister=lister)
    assert str(raised.value) == "sarama 1.60.9 is not published; nearest: 1.60.1, 1.60.2, 1.61.0, 1.61.1"


def test_a_missing_go_toolchain_is_one_line_naming_what_to_install(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(gomodule.shutil, "which", lambda name: None)
    with pytest.raises(ConfigError, match=r"^no Go toolchain found to build a Go adapter: install Go"):
        install.install("1.61.1", _config(tmp_path))


def test_the_kafka_version_rule_is_stated_in_the_program() -> None:
    source = (install.SOURCES / "main.go").read_text()
    assert '"kafka_version": version.String(), "kafka_version_rule": rule' in source
    assert "sarama.MaxVersion" in source and "sarama.DefaultVersion" in source


def test_a_release_before_the_move_is_the_shopify_module_and_older_than_the_adapter_builds_is_refused(
        tmp_path) -> None:
    assert install.module_of("1.38.1") == "github.com/Shopify/sarama"
    assert install.module_of("1.40.1") == install.MODULE
    with pytest.raises(ConfigError, match=r"^the sarama adapter builds with sarama 1\.38\.1 or newer; 1\.30\.0 is older"):
        install.check_release("1.30.0", _config(tmp_path, offline=True))
    assert install.check_release("1.38.1", _config(tmp_path, offline=True)) == "1.38.1"  # offline, no list: the build says
