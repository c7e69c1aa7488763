import json
import shlex

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
    """Command groups registered in the ``kcompat.commands`` entry-point group, as src/kcompat/reports/ would."""
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


def _refused(*args: str, said: str) -> str:
    """``kcompat ARGS`` as typed: a usage error (exit 2) of one line holding ``said``, quickly (nothing booted)."""
    from tests.console import kcompat

    done = kcompat(*args, timeout=90)
    assert done.returncode == 2 and "Traceback" not in done.stderr, (done.returncode, done.stdout[-500:], done.stderr)
    (line,) = done.stderr.strip().splitlines()
    assert said in line, line
    return line


@pytest.mark.parametrize(("args", "said"), [
    (["--clients", ""], "--clients '' names no client"),
    (["--brokers", ""], "--brokers '' names no broker"),
    (["--kip", ""], "--kip '' names no KIP"),
    (["-k", "list_offsets"], "nothing matches 'list_offsets' (nearest: listoffsets, list-offsets-"),
    (["-m", "kip52"], "-m 'kip52' selects none of the "),
    (["-m", "kip525", "-k", "wire and java"], "-k 'wire and java' selects none of the"),
    (["-k", "create("], "-k 'create(': at column"),
    (["--clients", "java:４.4.0"], "'４.4.0' is not a release"),
    (["--clients", "wire@v99999999999999999999", "--kip", "KIP-525"],
     "Kafka's message definitions have v99999999999999999999 of none of the selection's APIs (CreateTopics, DescribeConfigs"),
])
def test_a_selection_of_nothing_is_one_line_before_anything_boots_in_a_run_and_its_plan(
        tmp_path: Path, args: list[str], said: str) -> None:
    """An empty axis, a -m/-k that selects no cell, a release or pin no release defines: `run` and `run --plan`
    give the same line, and the run lays nothing out."""
    out = tmp_path / "run"
    assert _refused("run", *args, "--out", str(out), said=said).startswith("kcompat: error: ")
    assert not out.exists()
    assert _refused("run", "--plan", *args, said=said).startswith("kcompat: error: ")


def test_plan_selects_with_m_and_k_exactly_the_cells_pytest_collects(tmp_path: Path) -> None:
    """`run --plan -m/-k` evaluates pytest's expressions over the cells' own marks and names: the ids it lists
    are the ones pytest collects with the same expressions (package and module names match too)."""
    import subprocess
    import sys

    from kcompat.harness.matrix.claims import scenarios_dir
    from tests.console import kcompat, ok

    selection = ["--brokers", "2.3,4.4", "--clients", "wire,java:4.4.0", "--kip", "KIP-525,KIP-569"]
    expressions = ["-m", "createtopics or kip569", "-k", "WIRE] and not 2.3 or test_cells.py and java and configs"]
    planned = ok(kcompat("run", "--plan", *selection, *expressions, timeout=120)).splitlines()[:-1]
    scenarios = scenarios_dir()
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", str(scenarios), "-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--import-mode=importlib", "-q", "--co", "--kc-run-dir", str(tmp_path / "run"), "--kc-brokers", "2.3,4.4",
         "--kc-clients", "wire,java:4.4.0", "--kc-kips", "KIP-525,KIP-569", *expressions],
        capture_output=True, text=True, timeout=300, check=False, cwd=scenarios.parent.parent)
    ids = [line.split("::test_cell[", 1)[1][:-1] for line in collected.stdout.splitlines() if "::test_cell[" in line]
    assert ids and sorted(ids) == sorted(planned), collected.stdout[-2000:] + collected.stderr[-2000:]
    assert len(planned) < len(ok(kcompat("run", "--plan", *selection, timeout=120)).splitlines()) - 1


@pytest.mark.parametrize(("out", "said"), [
    ("afile", "afile is a file, not a directory"),
    ("afile/x", "afile is a file, not a directory"),
    ("/proc/x", "--out /proc/x: can't write a run directory there"),
    ("/sys/x", "--out /sys/x: can't write a run directory there"),
    ("", "'--out': names no directory"),
    ("/", "--out / exists and is not empty: choose another --out (it holds no kcompat run)"),
])
def test_an_out_that_cannot_be_a_run_directory_is_one_line_before_anything_boots(
        tmp_path: Path, out: str, said: str) -> None:
    (tmp_path / "afile").write_text("")
    given = out if out in ("", "/") or out.startswith("/") else str(tmp_path / out)
    line = _refused("run", "--kip", "KIP-525", "--brokers", "4.4", "--clients", "wire", "--out", given, said=said)
    assert "--resume" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_the_hint_to_continue_a_run_is_a_command_that_works(tmp_path: Path) -> None:
    from kcompat.harness.records import RUN_FILE

    out = tmp_path / "a run"
    out.mkdir()
    (out / RUN_FILE).write_text("{}")
    line = _refused("run", "--kip", "KIP-525", "--out", str(out), said="exists and is not empty")
    hint = line.split("continue it with `", 1)[1].split("`", 1)[0]
    assert hint == f"kcompat run --out '{out}' --resume"
    typed = shlex.split(hint)  # as a shell reads it: the run continues (here to its run.json, which names nothing)
    _refused(*typed[1:], said=f"{out / RUN_FILE}: field 'selection' is null")


@pytest.mark.parametrize("claims", ['"abc"', "[1]", '{"dir": 5}'])
def test_a_run_json_whose_claims_are_not_a_book_is_one_line_naming_the_file_and_field(tmp_path: Path,
                                                                                      claims: str) -> None:
    from kcompat.harness.records import RECORDS_FILE, RUN_FILE, append_record
    from tests.history_builders import record

    cell = "KIP-525/create-returns-configs[4.4.0-kraft|wire]"
    selection = {"brokers": ["4.4"], "modes": "default", "clients": ["wire"], "kips": ["KIP-525"]}
    (tmp_path / RUN_FILE).write_text(f'{{"selection": {json.dumps(selection)}, "claims": {claims}}}')
    append_record(tmp_path / RECORDS_FILE, record("r", cell, "pass", day=1))
    said = f"{tmp_path / RUN_FILE}: field 'claims' is {claims}"
    _refused("run", "--out", str(tmp_path), "--resume", said=said)
    _refused("repro", cell, "--run", str(tmp_path), "--out", str(tmp_path / "again"), said=said)
    assert not (tmp_path / "again").exists() and not (tmp_path / "logs").exists()


def test_repro_of_a_cell_its_run_never_recorded_refuses_before_booting(tmp_path: Path) -> None:
    """Compared with no record, a repro would say it reproduced: it names what the run holds instead."""
    from kcompat.harness.records import RECORDS_FILE, append_record
    from tests.history_builders import record

    held = "KIP-525/create-returns-configs[4.4.0-kraft|wire]"
    asked = "KIP-525/validate-only-returns-configs[4.4.0-kraft|wire]"
    append_record(tmp_path / RECORDS_FILE, record("r", held, "pass", day=1))
    with (tmp_path / RECORDS_FILE).open("a") as records:  # the asked cell's own line, malformed
        records.write(json.dumps({"cell_id": asked, "outcome": 5}) + "\n")
    line = _refused("repro", asked, "--run", str(tmp_path), "--out", str(tmp_path / "again"),
                    said=f"holds no record of {asked} (1 cells; 1 line(s) could not be read); nearest: {held}")
    assert line.startswith(f"kcompat: error: {tmp_path / RECORDS_FILE} ")
    assert not (tmp_path / "again").exists()
