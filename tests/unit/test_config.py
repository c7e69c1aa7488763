"""Settings are declared once and read by type; a bad value is one line naming where it came from."""

import math
from dataclasses import fields
from pathlib import Path

import pytest

from kcompat.harness.config import SETTINGS, HarnessConfig
from kcompat.harness.errors import ConfigError


def test_every_field_is_a_setting_with_derived_names() -> None:
    assert [s.name for s in SETTINGS] == [f.name for f in fields(HarnessConfig)]
    timeout = next(s for s in SETTINGS if s.name == "boot_timeout")
    assert (timeout.env, timeout.option, timeout.pytest_option, timeout.ini) == (
        "KCOMPAT_BOOT_TIMEOUT", "--boot-timeout", "--kc-boot-timeout", "kc_boot_timeout")
    assert timeout.type is float and timeout.default == 180.0
    assert next(s for s in SETTINGS if s.name == "stop_grace").default == 30.0


@pytest.mark.parametrize(("text", "expected"), [("false", False), ("0", False), ("No", False), ("off", False),
                                                ("true", True), ("1", True), (" YES ", True), ("on", True)])
def test_booleans_read_both_ways(monkeypatch: pytest.MonkeyPatch, text: str, expected: bool) -> None:
    monkeypatch.setenv("KCOMPAT_OFFLINE", text)
    assert HarnessConfig.resolve().offline is expected


def test_a_boolean_that_is_neither_is_an_error_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCOMPAT_OFFLINE", "maybe")
    with pytest.raises(ConfigError, match=r"^KCOMPAT_OFFLINE='maybe' is not a boolean"):
        HarnessConfig.resolve()


@pytest.mark.parametrize("text", ["abc", "0", "-5", "nan", "inf", ""])
def test_durations_are_finite_and_positive(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("KCOMPAT_BOOT_TIMEOUT", text)
    with pytest.raises(ConfigError, match=r"^KCOMPAT_BOOT_TIMEOUT=") as caught:
        HarnessConfig.resolve()
    assert "\n" not in str(caught.value)


def test_precedence_is_argument_then_layers_in_order_then_environment_then_default(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KCOMPAT_BOOT_TIMEOUT", "7")
    monkeypatch.setenv("KCOMPAT_STOP_GRACE", "9")
    option = (lambda s: s.pytest_option, {"boot_timeout": "5", "stop_grace": None})
    ini = (lambda s: s.ini, {"boot_timeout": "6", "stop_grace": None, "keep_data": "yes"})
    config = HarnessConfig.resolve([option, ini])
    assert (config.boot_timeout, config.stop_grace, config.keep_data) == (5.0, 9.0, True)
    assert HarnessConfig.resolve([option], boot_timeout=1.5).boot_timeout == 1.5
    monkeypatch.delenv("KCOMPAT_STOP_GRACE")
    assert HarnessConfig.resolve().stop_grace == 30.0
    assert math.isclose(HarnessConfig.resolve([ini]).boot_timeout, 6.0)


def test_errors_name_the_layer_a_value_came_from() -> None:
    with pytest.raises(ConfigError, match=r"^ini kc_stop_grace='-1': a duration"):
        HarnessConfig.resolve([(lambda s: f"ini {s.ini}", {"stop_grace": "-1"})])
    with pytest.raises(ConfigError, match=r"^--images='apache/kafka': image override"):
        HarnessConfig.resolve([(lambda s: s.option, {"images": "apache/kafka"})])


def test_paths_are_absolute_and_not_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCOMPAT_RUN_ROOT", "runs")
    assert HarnessConfig.resolve().run_root == Path("runs").absolute()
    monkeypatch.setenv("KCOMPAT_CACHE_DIR", " ")
    with pytest.raises(ConfigError, match="KCOMPAT_CACHE_DIR is empty"):
        HarnessConfig.resolve()


@pytest.mark.parametrize("text", ["0", "11", "-1", "3.0", "nan", "", " ", "three", "\u0663", "1" * 5000])
def test_observations_are_a_whole_number_from_1_to_10(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("KCOMPAT_OBSERVATIONS", text)
    with pytest.raises(ConfigError, match="KCOMPAT_OBSERVATIONS=.* is not a whole number from 1 to 10"):
        HarnessConfig.resolve()


def test_observations_default_to_3_and_come_from_every_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KCOMPAT_OBSERVATIONS", raising=False)
    assert HarnessConfig.resolve().observations == 3
    monkeypatch.setenv("KCOMPAT_OBSERVATIONS", " 5 ")
    assert HarnessConfig.resolve().observations == 5
    assert HarnessConfig.resolve([(lambda s: s.ini, {"observations": "1"})]).observations == 1
    assert HarnessConfig.resolve(observations=10).observations == 10
    with pytest.raises(ConfigError):
        HarnessConfig.resolve(observations=True)


@pytest.mark.parametrize(("args", "origin"), [
    (["run", "--observations", "0"], "--observations='0'"),
    (["--observations", "NaN", "run"], "--observations='NaN'"),
])
def test_a_bad_observation_count_is_one_line_before_anything_boots(tmp_path: Path, args: list[str],
                                                                   origin: str) -> None:
    from tests.console import kcompat

    done = kcompat(*args, "--kip", "KIP-195", "--out", str(tmp_path / "run"), timeout=120)
    assert done.returncode != 0 and not (tmp_path / "run").exists()
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kcompat: error: ") and origin in lines[0]
    assert "is not a whole number from 1 to 10" in lines[0]
