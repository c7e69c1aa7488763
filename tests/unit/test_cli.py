import json
from pathlib import Path

from click.testing import CliRunner

from harness import load_catalog
from harness.cli import main, survey_table


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
