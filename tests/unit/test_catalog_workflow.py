"""The nightly workflow parses and fails on catalog drift."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_nightly_runs_check_catalog_on_a_schedule() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "nightly.yml").read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` key as true
    assert triggers["schedule"][0]["cron"]
    runs = [(name, step["run"]) for name, job in workflow["jobs"].items()
            for step in job["steps"] if "run" in step]
    checks = [name for name, command in runs if command.strip() == "kcompat brokers check-catalog"]
    assert checks, runs
    job = workflow["jobs"][checks[0]]
    # A drift exits 1 and so fails the step; nothing may swallow that.
    assert not job.get("continue-on-error") and all(not s.get("continue-on-error") for s in job["steps"])
    assert any("pip install" in command for name, command in runs if name == checks[0])
