import json

import pytest
from pathlib import Path

from click.testing import CliRunner

from kcompat.harness import load_catalog
from kcompat.harness.cli import main
from kcompat.harness.cli.brokers import survey_table


def test_list_json_is_the_catalog(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path), "brokers", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [row["newest"] for row in rows] == [str(line.newest) for line in load_catalog()]
    assert not any(row["cached"] for row in rows)  # an empty cache dir


def test_unknown_version_is_one_line_and_exit_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path), "brokers", "probe", "7.1", "--json"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "Kafka 7.1 is not in the catalog; known lines: 0.10.2" in lines[0]


def test_offline_probe_of_an_uncached_version(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path), "--offline", "brokers", "probe", "3.8", "--json"])
    assert result.exit_code == 1
    assert "Kafka 3.8.1 is not in the cache" in result.output


def test_survey_table_shows_ranges_and_gaps() -> None:
    records = [{"version": "0.10.2.2", "mode": "zk", "java": "11", "boot_seconds": 2.0,
                "api_versions": [{"api_key": 19, "name": "CreateTopics", "min_version": 0, "max_version": 1}]}]
    table = survey_table(records)
    cells = {table.columns[0]._cells[i]: table.columns[1]._cells[i] for i in range(table.row_count)}
    assert cells["CreateTopics"] == "v0-v1"
    assert cells["CreatePartitions"] == "-"


def test_reap_asks_every_provider_and_an_absent_engine_has_nothing_to_reap(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path), "brokers", "reap"])
    assert result.exit_code == 0, result.output
    asked = CliRunner().invoke(main, ["--cache-dir", str(tmp_path), "brokers", "reap", "--reused"])
    assert asked.exit_code == 1  # reused clusters were asked for by name: no engine is the error
    assert "no Docker engine answers at unix:///nonexistent/docker.sock" in asked.output


def _error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


def test_a_usage_error_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path), "brokers", "up"])
    assert result.exit_code == 2
    assert _error_lines(result.output) == ["kcompat: error: Missing argument 'VERSION'; see 'kcompat brokers up --help'"]
    result = CliRunner().invoke(main, ["brokers", "up", "3.9", "--property", "novalue"])
    assert result.exit_code == 2
    assert _error_lines(result.output) == [
        "kcompat: error: Invalid value for --property: 'novalue': expected KEY=VALUE; "
        "see 'kcompat brokers up --help'"]


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("KCOMPAT_BOOT_TIMEOUT", "abc", "KCOMPAT_BOOT_TIMEOUT='abc' is not a number of seconds"),
    ("KCOMPAT_BOOT_TIMEOUT", "-3", "KCOMPAT_BOOT_TIMEOUT='-3': a duration is a finite number of seconds above 0"),
    ("KCOMPAT_OFFLINE", "maybe", "KCOMPAT_OFFLINE='maybe' is not a boolean"),
    ("KCOMPAT_PROVIDER", "nope", "unknown provider 'nope'; known: container, process"),
])
def test_a_bad_setting_is_one_line_and_exit_1(variable: str, value: str, message: str) -> None:
    result = CliRunner().invoke(main, ["brokers", "list"], env={variable: value})
    assert result.exit_code == 1
    lines = _error_lines(result.output)
    assert len(lines) == 1 and lines[0].startswith(f"kcompat: error: {message}"), lines


def test_the_jit_setting_as_typed_through_the_console_script() -> None:
    """``--jit`` / ``KCOMPAT_JIT`` through the installed ``kcompat``: a known choice runs, another is one line."""
    import os

    from tests.console import kcompat, ok

    lines = ok(kcompat("--jit", "tiered", "brokers", "list", "--json", timeout=60)).splitlines()
    assert lines and all(json.loads(line) for line in lines)
    bad = kcompat("brokers", "list", timeout=60, env={**os.environ, "KCOMPAT_JIT": "fast"})
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines() == ["kcompat: error: KCOMPAT_JIT='fast' is not one of c1, tiered"]


def test_global_options_are_generated_from_the_settings() -> None:
    from kcompat.harness.config import SETTINGS

    result = CliRunner().invoke(main, ["--help"], terminal_width=200)
    for setting in SETTINGS:
        assert setting.option in result.output and setting.env in result.output
    assert "--offline / --no-offline" in result.output
    result = CliRunner().invoke(main, ["--no-offline", "brokers", "list", "--json"], env={"KCOMPAT_OFFLINE": "yes"})
    assert result.exit_code == 0, result.output


def test_tables_to_a_pipe_are_never_wrapped(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path), "brokers", "list"], env={"COLUMNS": "40"})
    assert result.exit_code == 0
    row = next(line for line in result.output.splitlines() if "0.10.2.2" in line)
    assert "kafka_2.12" in row and "+javax.xml.bind:jaxb-api:2.3.1" in row


EXTRA = '''
import click


@click.group()
def history():
    """Records over time (a package above the harness)."""


@history.command("show")
def show():
    click.echo("history shown")


@click.command()
def interrupt():
    raise KeyboardInterrupt
'''


@pytest.fixture
def extra_commands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Command groups registered in the ``kcompat.commands`` entry-point group, as reports/ would."""
    from importlib.metadata import EntryPoint

    import kcompat.harness.cli

    (tmp_path / "kc_extra.py").write_text(EXTRA)
    monkeypatch.syspath_prepend(str(tmp_path))
    found = [EntryPoint("history", "kc_extra:history", "kcompat.commands"),
             EntryPoint("interrupt", "kc_extra:interrupt", "kcompat.commands"),
             EntryPoint("broken", "kc_missing:nothing", "kcompat.commands"),
             EntryPoint("brokers", "kc_extra:history", "kcompat.commands")]
    monkeypatch.setattr(kcompat.harness.cli, "entry_points",
                        lambda group: [ep for ep in found if ep.group == group])
    monkeypatch.setattr(kcompat.harness.cli.main, "commands", {})


def test_command_groups_are_discovered_from_entry_points(extra_commands: None) -> None:
    result = CliRunner().invoke(main, ["history", "show"])
    assert result.exit_code == 0 and result.output == "history shown\n"
    listing = CliRunner().invoke(main, ["--help"], terminal_width=200).output
    assert "history" in listing and "Records over time" in listing
    assert "broken" in listing and "unavailable" in listing  # a broken plug-in leaves the others working
    brokers = CliRunner().invoke(main, ["brokers", "--help"])
    assert "Real Kafka brokers" in brokers.output  # built-in nouns win over a plug-in of the same name


def test_a_command_that_cannot_load_is_one_line(extra_commands: None) -> None:
    result = CliRunner().invoke(main, ["broken", "whatever"])
    assert result.exit_code == 1
    lines = _error_lines(result.output)
    assert len(lines) == 1 and "command 'broken' (kc_missing:nothing, entry point group kcompat.commands) " \
                                "can't be loaded: ModuleNotFoundError" in lines[0]


def test_ctrl_c_exits_130(extra_commands: None) -> None:
    result = CliRunner().invoke(main, ["interrupt"])
    assert result.exit_code == 130
    assert "kcompat: interrupted" in result.output


def test_a_bad_claims_directory_is_one_line_exit_2_and_nothing_runs(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "KIP-525.toml").write_text('kip = "KIP-525"\n\n[[claim]]\nid = "Bad Id"\n')
    for given, message in [(tmp_path / "nowhere", "does not exist"),
                           (tmp_path / "empty", "holds no claims files (KIP-*.toml, DOCS-*.toml)"),
                           (bad, f"{bad / 'KIP-525.toml'}:3: ")]:
        out = tmp_path / "run"
        result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path / "cache"), "run", "--claims", str(given),
                                           "--kip", "KIP-525", "--out", str(out)])
        assert result.exit_code == 2, result.output
        lines = _error_lines(result.output)
        assert len(lines) == 1 and lines[0].startswith("kcompat: error: Invalid value for --claims: "), lines
        assert message in lines[0], lines
        assert not out.exists()  # nothing laid out, nothing booted
    for command in (["repro", "KIP-525/create-returns-configs[2.4.1-zk|wire]"],
                    ["bisect", "KIP-525/create-returns-configs", "--client", "wire", "--good", "2.3.1",
                     "--bad", "2.4.1"]):
        result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path / "cache"), *command,
                                           "--claims", str(tmp_path / "empty"), "--out", str(out)])
        assert result.exit_code == 2, result.output
        lines = _error_lines(result.output)
        assert len(lines) == 1 and "Invalid value for --claims: " in lines[0] and "holds no claims" in lines[0], lines
        assert not out.exists()
