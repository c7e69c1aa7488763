"""The matrix and qualification workflows: valid YAML with the structure and commands CI relies on (not run here)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"


def _load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((WORKFLOWS / name).read_text())
    assert isinstance(data, dict)
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads a bare `on` as true
    return data


def _runs(job: dict[str, Any]) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def _uses(job: dict[str, Any], action: str) -> list[dict[str, Any]]:
    return [step for step in job["steps"] if str(step.get("uses", "")).startswith(action + "@")]


def test_nightly_shards_by_every_catalog_line_and_merges_one_page() -> None:
    flow = _load("matrix-nightly.yml")
    assert "schedule" in flow["on"] and "workflow_dispatch" in flow["on"]
    shard, page = flow["jobs"]["shard"], flow["jobs"]["page"]
    catalog = tomllib.loads((ROOT / "harness" / "catalog.toml").read_text())
    assert shard["strategy"]["matrix"]["broker"] == [line["line"] for line in catalog["line"]]
    assert shard["strategy"]["fail-fast"] is False
    assert any("scripts/bootstrap.sh" in run for run in _runs(shard))
    assert any('kcompat run --brokers "${{ matrix.broker }}" --out "run-${{ matrix.broker }}"' in run
               for run in _runs(shard))
    (upload,) = _uses(shard, "actions/upload-artifact")
    assert upload["with"]["path"] == upload["with"]["name"] == "run-${{ matrix.broker }}"
    assert upload["if"] == "always()"  # a shard with failing cells still hands its run directory on
    assert page["needs"] == "shard" and page["if"] == "always()"
    (download,) = _uses(page, "actions/download-artifact")
    assert download["with"]["pattern"] == "run-*"
    published = {step["with"]["name"]: step for step in _uses(page, "actions/upload-artifact")}
    assert {name: step["with"]["path"] for name, step in published.items()} == {
        "matrix-page": "nightly/page", "history-report": "nightly/history"}
    assert all(step["if"] == "always()" for step in published.values())  # a regression still publishes both


def test_nightly_page_job_is_the_nightly_script_and_keeps_the_store_between_nights() -> None:
    page = _load("matrix-nightly.yml")["jobs"]["page"]
    names = [step.get("name") for step in page["steps"]]
    assert _runs(page).count('bash scripts/nightly.sh --store "$STORE" --out nightly --screenshot run-*') == 1
    assert not any("kcompat" in run for run in _runs(page)), "the workflow stays thin: its steps call scripts"
    assert page["env"]["STORE"] == "${{ vars.KCOMPAT_HISTORY_STORE || 'history-store' }}"
    (restore,) = _uses(page, "actions/cache/restore")
    (save,) = _uses(page, "actions/cache/save")
    assert restore["with"]["path"] == save["with"]["path"] == "history-store"
    # a cache entry never changes: each night saves under its own key, the next restores the newest by prefix
    assert save["with"]["key"] == restore["with"]["key"] == "kcompat-history-${{ github.run_id }}"
    assert restore["with"]["restore-keys"] == "kcompat-history-"
    script = next(i for i, step in enumerate(page["steps"]) if "scripts/nightly.sh" in step.get("run", ""))
    assert names.index(restore["name"]) < script < names.index(save["name"])
    assert save["if"].startswith("${{ always() && !vars.KCOMPAT_HISTORY_STORE")  # a red night is kept too
    assert restore["if"] == "${{ !vars.KCOMPAT_HISTORY_STORE }}"  # an object store needs no cache


def test_qualify_runs_the_profile_and_keeps_its_page() -> None:
    flow = _load("qualify.yml")
    job = flow["jobs"]["qualify"]
    assert flow["on"]["workflow_dispatch"]["inputs"]["profile"]["required"] is True
    assert any('kcompat qualify --profile "$PROFILE"' in run for run in _runs(job))
    assert any(step.get("env", {}).get("PROFILE") == "${{ inputs.profile }}" for step in job["steps"])
    (upload,) = _uses(job, "actions/upload-artifact")
    assert upload["if"] == "always()"


def test_every_job_sets_up_with_the_projects_bootstrap() -> None:
    for name in ("matrix-nightly.yml", "qualify.yml"):
        for job in _load(name)["jobs"].values():
            assert job["container"] == "debian:12" and job["timeout-minutes"] > 0
            assert _uses(job, "actions/checkout")
            assert any(run.startswith("bash scripts/bootstrap.sh") for run in _runs(job))


def test_what_ci_leaves_out_the_nightly_runs() -> None:
    """scripts/test.sh deselects the `nightly` marker in both pytest steps; the nightly runs exactly that
    marker and tox for every confluent-kafka line tox.ini has."""
    script = (ROOT / "scripts" / "test.sh").read_text()
    steps = [line for line in script.splitlines() if line.startswith(".venv/bin/python -m pytest -n 2")]
    assert len(steps) == 2 and all("not nightly" in step for step in steps), steps
    runs = _runs(_load("matrix-nightly.yml")["jobs"]["self-tests"])
    assert "bash scripts/test.sh -n 2 --dist loadfile -m nightly" in runs
    lines = re.findall(r"ck\d+_\d+", (ROOT / "tox.ini").read_text().split("env_list =")[1].splitlines()[0])
    assert f".venv/bin/tox -e {','.join(lines)}" in runs
