"""The matrix and qualification workflows: valid YAML with the structure and commands CI relies on (not run here)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kcompat"
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
    catalog = tomllib.loads((SRC / "harness" / "catalog.toml").read_text())
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


def _test_script() -> str:
    """scripts/test.sh with its continued lines joined."""
    return (ROOT / "scripts" / "test.sh").read_text().replace("\\\n", " ")


def _pytest_stages() -> list[str]:
    """CI's pytest commands in scripts/test.sh, in order (a developer's `pytest "$@"` is not one)."""
    return [line for line in _test_script().splitlines() if line.startswith(".venv/bin/python -m pytest ")]


def test_what_ci_leaves_out_the_nightly_runs() -> None:
    """scripts/test.sh deselects the `nightly` marker in every pytest stage; the nightly runs exactly that
    marker and tox for every confluent-kafka line tox.ini has."""
    steps = _pytest_stages()
    assert len(steps) == 4 and all("not nightly" in step for step in steps), steps
    runs = _runs(_load("matrix-nightly.yml")["jobs"]["self-tests"])
    assert "bash scripts/test.sh -n 2 --dist loadfile -m nightly" in runs
    lines = re.findall(r"ck\d+_\d+", (ROOT / "tox.ini").read_text().split("env_list =")[1].splitlines()[0])
    assert f".venv/bin/tox -e {','.join(lines)}" in runs


def test_ci_runs_the_unit_tests_first_and_alone_and_logs_where_time_goes() -> None:
    """A broken unit test fails CI in a minute or two, named: the unit stage is first, holds tests/unit and
    nothing else, and its failure exits with its own line; every stage prints its slowest tests."""
    script = _test_script()
    unit, *integration = _pytest_stages()
    assert unit.endswith(" tests/unit") and "-n 2" in unit
    assert integration and all(step.endswith(" tests/integration") for step in integration)
    assert all("--durations=" in step for step in [unit, *integration])
    after_unit = script.split(unit, 1)[1].lstrip().splitlines()[0]
    assert after_unit == 'check "unit tests" $?'
    assert script.index(unit) < min(script.index(step) for step in integration) < script.index(".venv/bin/tox")


def test_static_checks_are_ci_stages_before_any_test() -> None:
    """ruff and mypy strict are stages of their own, each stopping CI with its name before the unit tests run,
    not tests inside pytest (a pytest run of one test pays no type check)."""
    script = _test_script()
    unit = _pytest_stages()[0]
    for command, step in ((".venv/bin/ruff check", "ruff"), (".venv/bin/python -m mypy", "mypy")):
        line = next(line for line in script.splitlines() if line.startswith(command))
        assert script.split(line, 1)[1].lstrip().splitlines()[0] == f'check "{step}" $?'
        assert script.index(line) < script.index(unit), line
    mypy_in_tests = [p.name for p in (ROOT / "tests").rglob("test_*.py")
                     if p != Path(__file__) and '"-m", "mypy"' in p.read_text()]
    assert not mypy_in_tests, mypy_in_tests


def test_nested_runs_with_workers_never_share_the_cores_with_the_suites_workers() -> None:
    """A `kcompat run` a test starts takes its worker count from tests/console.py's run_workers (none inside an
    xdist worker); a test of scripts/main.sh, which always takes two, is marked `own_workers`, and CI runs
    those in a stage without xdist, leaving them out of the stages that have workers."""
    stages = _pytest_stages()
    alone = [step for step in stages if '-m "own_workers' in step]
    assert len(alone) == 1 and " -n " not in alone[0]
    assert all("not own_workers" in step for step in stages if " -n " in step and "tests/integration" in step
               and "--kc-provider container" not in step)
    for path in sorted((ROOT / "tests" / "integration").glob("test_*.py")):
        source = path.read_text()
        assert not re.search(r'"-n", "[1-9]', source), f"{path.name}: take -n from run_workers()"
        if "scripts/main.sh" in source:
            assert "pytest.mark.own_workers" in source, f"{path.name} runs scripts/main.sh (-n 2) but is not marked"


def test_nightly_runs_a_release_the_catalog_lacks_and_proposes_its_entry() -> None:
    """The new-release job derives the entries of releases the catalog lacks, runs them that night with those
    entries, and opens a pull request adding them; the run and the pull request only when something is new,
    and a failing run still proposes the entry (saying how the run went)."""
    job = _load("matrix-nightly.yml")["jobs"]["new-release"]
    steps = {step.get("id"): step for step in job["steps"] if step.get("id")}
    derive, run = steps["derive"], steps["run"]
    assert ".venv/bin/kcompat brokers check-catalog --derive > derived.toml" in derive["run"]
    assert 'test "$status" -le 1' in derive["run"]  # drift is this job's input; any other failure stops it
    assert "scripts/catalog_entries.py derived.toml" in derive["run"] and "$GITHUB_OUTPUT" in derive["run"]
    new = "steps.derive.outputs.releases != ''"
    assert new in run["if"] and run["env"]["RELEASES"] == "${{ steps.derive.outputs.releases }}"
    assert run["run"] == '.venv/bin/kcompat run --brokers "$RELEASES" --out run-new-release'
    (upload,) = _uses(job, "actions/upload-artifact")
    assert upload["with"]["path"] == "run-new-release" and upload["if"] == f"${{{{ always() && {new} }}}}"
    (pr,) = [step for step in job["steps"] if "gh pr create" in step.get("run", "")]
    assert pr["if"] == f"${{{{ always() && {new} }}}}" and pr["env"]["GH_TOKEN"] == "${{ github.token }}"
    assert pr["env"]["RUN"] == "${{ steps.run.outcome }}" and pr["shell"] == "bash"
    assert "git ls-remote --exit-code --heads origin" in pr["run"]  # a release already proposed: no second PR
    assert job["permissions"] == {"contents": "write", "pull-requests": "write"}
    names = [step.get("id") or step.get("name") for step in job["steps"]]
    assert names.index("derive") < names.index("run") < names.index(pr["name"])
