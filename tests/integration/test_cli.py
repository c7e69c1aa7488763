"""The CLI end to end against real brokers (in-process through click's runner)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kcompat.harness.cli import main


def test_probe_prints_what_the_broker_answered(kc_config) -> None:
    result = CliRunner().invoke(main, ["--cache-dir", str(kc_config.cache_dir), "brokers", "probe", "2.8", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["version"] == "2.8.2" and record["mode"] == "zk"
    names = {a["name"]: a for a in record["api_versions"]}
    assert names["CreateTopics"]["max_version"] >= 5
    assert set(record) >= {"version", "mode", "java", "boot_seconds", "api_versions"}


def test_clients_survey_emits_one_record_per_call(kc_config) -> None:
    result = CliRunner().invoke(main, ["--cache-dir", str(kc_config.cache_dir), "clients", "survey", "3.9",
                                       "--client", "wire", "--json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert [r["operation"] for r in records] == ["create_topics", "create_partitions", "describe_configs",
                                                 "list_topics"]
    assert all(r["client"] == "wire" and r["request_version"] is not None for r in records)
