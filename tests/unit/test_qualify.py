"""kcompat qualify's pure parts: profiles, known_deviations (file+line errors) and the verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.records import Record
from kcompat.reports.qualify import QualifyError, classify, load_profile, load_profiles, parse_known_deviations
from tests.unit.page.records import BELOW_DEVIATION, DEVIATION, FAIL, INFRA, INTERMITTENT, records

KNOWN = """\
# reviewed 2026-11-20
[[deviation]]
cell = "KIP-525/validate-only-returns-configs[2.4.1-zk|*]"
reason = "2.4.1 answers validateOnly without configs; fixed in 2.5"
reviewed_by = "alice"

[[deviation]]
cell = "KIP-108/*[0.10.2.2-zk|*]"
reason = "outside this run"
reviewed_by = "bob"

[[deviation]]
cell = "KIP-569/config-documentation[3.9.2-kraft|wire]"
reason = "was null before the fix"
reviewed_by = "carol"
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_known_deviations_parse_with_their_lines(tmp_path: Path) -> None:
    entries = parse_known_deviations(_write(tmp_path, "known.toml", KNOWN))
    assert [(e.line, e.reviewed_by) for e in entries] == [(2, "alice"), (7, "bob"), (12, "carol")]
    assert entries[0].matches(DEVIATION)  # brackets literal, * a wildcard
    assert not entries[0].matches(DEVIATION.replace("2.4.1", "2.6.3"))
    assert not entries[0].matches("KIP-525/validate-only-returns-configs[2-zk|wire]")


@pytest.mark.parametrize(("text", "line", "message"), [
    ('[[deviation]]\ncell = "KIP-1/x[1.0-zk|wire]"\nreason = "r"\nreviewed_by = "a"\n\n[[deviation]]\n'
     'cell = "KIP-1/*"\nreason = "r"\n', 6, "lacks reviewed_by"),
    ('[[deviation]]\ncell = "KIP-1/x[1.0-zk|wire]"\nreason = ""\nreviewed_by = "a"\n', 1, "lacks reason"),
    ('[[deviation]]\ncell = "KIP-1/x"\nreason = "r"\nreviewed_by = "a"\n', 1, "is not a cell id pattern"),
    ('\n[[deviation]]\ncell = "KIP-1/*"\nreason = "r"\nreviewed_by = "a"\nreviewer = "b"\n', 2, "unknown key reviewer"),
    ('[[deviation]]\ncell = "KIP-1/*"\nreason = "r\nreviewed_by = "a"\n', 3, "not valid TOML"),
    ('\n\ndeviations = 1\n', 3, "unknown key deviations"),
])
def test_malformed_entries_name_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = _write(tmp_path, "known.toml", text)
    with pytest.raises(QualifyError) as info:
        parse_known_deviations(path)
    assert str(info.value).startswith(f"{path}:{line}: ") and message in str(info.value)
    assert "\n" not in str(info.value)


def test_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(QualifyError, match=r"absent.toml: cannot read"):
        parse_known_deviations(tmp_path / "absent.toml")


def test_verdict_classifies_deviations_and_reports_stale_entries(tmp_path: Path) -> None:
    entries = parse_known_deviations(_write(tmp_path, "known.toml", KNOWN))
    verdict = classify(records(), entries)
    assert [r.cell_id for r, _ in verdict.known_deviations] == [DEVIATION]
    assert [r.cell_id for r in verdict.unknown_deviations] == [BELOW_DEVIATION]
    assert [r.cell_id for r in verdict.unknown_intermittent] == [INTERMITTENT]
    assert [r.cell_id for r in verdict.failed] == [FAIL] and [r.cell_id for r in verdict.infra_errors] == [INFRA]
    assert [e.line for e in verdict.stale] == [12] and [e.line for e in verdict.unexercised] == [7]
    assert verdict.exit_code == 1 and verdict.cells == 80
    lines = verdict.lines()
    assert f"fail: {FAIL}: set-up: CreateTopics returned POLICY_VIOLATION (log: logs/c1/broker.log)" in lines
    assert any(line.startswith(f"deviation not in known_deviations: {BELOW_DEVIATION}") for line in lines)
    assert f"stale known deviation {tmp_path / 'known.toml'}:12: KIP-569/config-documentation[3.9.2-kraft|wire] " \
           "matches no deviation of this run" in lines
    assert f"intermittent deviation not in known_intermittent: {INTERMITTENT} (held 2 of 3): configs is null " \
           "where KIP says present" in lines
    assert lines[-1].startswith("NOT qualified: 80 cells, 1 fail, 1 infra_error, 1 unknown deviation")
    assert "1 unknown intermittent, 0 known intermittent" in lines[-1]


def test_a_run_qualifies_when_every_deviation_is_reviewed_and_the_last_attempt_counts(tmp_path: Path) -> None:
    entries = parse_known_deviations(_write(tmp_path, "known.toml", KNOWN + """
[[deviation]]
cell = "KIP-569/config-types[2.4.1-zk|java:*]"
reason = "below the range the field reads null"
reviewed_by = "dave"
"""))
    retried = [Record(**{**r.as_json(), "outcome": "pass", "reason": None, "attempt": 2})
               for r in records() if r.cell_id in (FAIL, INFRA)]
    profile = load_profile(_write(tmp_path, "p.toml", PROFILES.replace(
        'known_deviations = "known.toml"', 'known_deviations = "known.toml"\n'
        'known_intermittent = [\n  "KIP-525/returns-*",\n]')), "release")
    verdict = classify(records() + retried, entries, profile.known_intermittent)
    assert verdict.ok and verdict.exit_code == 0
    assert verdict.lines()[-1].startswith("qualified: 80 cells, 0 fail, 0 infra_error, 0 unknown deviation, "
                                          "2 known deviation, 0 unknown intermittent, 1 known intermittent")
    assert f"known intermittent: {INTERMITTENT} (held 2 of 3; accepted by {tmp_path / 'p.toml'}:7)" in verdict.lines()


def test_known_intermittent_accepts_only_intermittent_deviations(tmp_path: Path) -> None:
    """A claim known to flip within a run: its intermittent cells are accepted, a steady deviation of it is not;
    a run in which it held steady says so without failing."""
    path = _write(tmp_path, "p.toml", PROFILES.replace('known_deviations = "known.toml"\n',
                                                       "known_intermittent = ['KIP-525/*']\n"))
    known = load_profile(path, "release").known_intermittent
    assert [(k.claim, k.line) for k in known] == [("KIP-525/*", 5)]
    steady = [Record(**{**r.as_json(), "intermittent": False, "observations": [
        {**o, "outcome": "deviation"} for o in r.observations]}) if r.cell_id == INTERMITTENT else r
        for r in records()]
    verdict = classify(steady, [], known)
    assert [r.cell_id for r in verdict.unknown_deviations] == sorted([BELOW_DEVIATION, DEVIATION, INTERMITTENT])
    assert verdict.known_intermittent == [] and verdict.steady_intermittent == list(known)
    assert f"deviation not in known_deviations: {INTERMITTENT} (steady, held 0 of 3): configs is null where KIP " \
           "says present" in verdict.lines()
    assert f"known intermittent {path}:5: KIP-525/* was not intermittent in this run" in verdict.lines()
    assert [r.cell_id for r, _ in classify(records(), [], known).known_intermittent] == [INTERMITTENT]


PROFILES = """\
[profiles.release]
brokers = ["2.3.1", "2.4", "3.9", "4.4.0"]
clients = ["wire", "confluent", "java:4.4.0", "wire@v5"]
kips = ["KIP-525", "KIP-569"]
known_deviations = "known.toml"

[profiles.kraft]
brokers = ["3.9", "4.4"]
modes = ["kraft"]
clients = ["java:4.4.0"]
kips = ["KIP-569"]
"""


def test_profiles_load_with_defaults_and_relative_known_deviations(tmp_path: Path) -> None:
    _write(tmp_path, "known.toml", KNOWN)
    path = _write(tmp_path, "profiles.toml", PROFILES)
    profiles = load_profiles(path)
    release = profiles["release"]
    assert release.modes == ("zk", "kraft") and release.brokers[1] == "2.4" and release.line == 1
    assert release.known_deviations == tmp_path / "known.toml"
    assert len(release.load_known_deviations()) == 3
    kraft = load_profile(path, "kraft")
    assert kraft.modes == ("kraft",) and kraft.known_deviations is None and kraft.line == 7
    with pytest.raises(QualifyError, match="2 profiles"):
        load_profile(path)
    with pytest.raises(QualifyError, match="no profile 'nightly'"):
        load_profile(path, "nightly")


@pytest.mark.parametrize(("replace", "by", "line", "message"), [
    ('kips = ["KIP-525", "KIP-569"]\n', 'kips = ["KIP-525", "KIP-569"]\nknown_intermittent = ["KIP-195/x[4.4.0-kraft|wire]"]\n',
     5, "is not a claim id"),
    ('kips = ["KIP-525", "KIP-569"]\n', 'kips = ["KIP-525", "KIP-569"]\nknown_intermittent = "KIP-195/x"\n',
     5, "known_intermittent must be a non-empty list"),
    ('kips = ["KIP-525", "KIP-569"]\n', 'kips = ["KIP-525", "KIP-569"]\nknown_intermittent = ["KIP-195/x\\n"]\n',
     5, "is not a claim id"),
    ('modes = ["kraft"]', 'modes = ["kraft", "sasl"]', 9, "'sasl' is not zk or kraft"),
    ('clients = ["java:4.4.0"]', 'clients = ["confluent"]', 10, None),
    ('clients = ["java:4.4.0"]', 'clients = ["kafka-python:3.0.12", "franz-go:1.22.2", "wire@v5"]', 10, None),
    ('clients = ["java:4.4.0"]', 'clients = ["java"]', 10, "needs a kafka-clients release"),
    ('clients = ["java:4.4.0"]', 'clients = ["kafka-pithon:3.0.12"]', 10, "unknown client kind 'kafka-pithon'"),
    ('clients = ["java:4.4.0"]', 'clients = ["java:4.4.0 "]', 10, "is not a client reference"),
    ('kips = ["KIP-569"]', 'kips = ["569"]', 11, "'569' is not a KIP"),
    ('brokers = ["3.9", "4.4"]', 'brokers = "3.9"', 8, "non-empty list of strings"),
    ('known_deviations = "known.toml"', 'known_deviations = "gone.toml"', 5, "does not exist"),
    ('kips = ["KIP-569"]', 'kips = ["KIP-569"]\nclient = ["wire"]', 12, "unknown key client"),
])
def test_malformed_profiles_name_file_and_line(tmp_path: Path, replace: str, by: str, line: int,
                                               message: str | None) -> None:
    _write(tmp_path, "known.toml", KNOWN)
    path = _write(tmp_path, "profiles.toml", PROFILES.replace(replace, by))
    if message is None:  # any reference the registry of client kinds parses
        load_profiles(path)
        return
    with pytest.raises(QualifyError) as info:
        load_profiles(path)
    assert str(info.value).startswith(f"{path}:{line}: ") and message in str(info.value)


def test_a_known_deviation_that_known_intermittent_accepted_first_is_not_stale(tmp_path: Path) -> None:
    """Both lists may cover an intermittent cell; the entry still matched a deviation of the run."""
    entry = f'[[deviation]]\ncell = "{INTERMITTENT}"\nreason = "flips on KRaft"\nreviewed_by = "alice"\n'
    known = parse_known_deviations(_write(tmp_path, "both.toml", entry))
    flips = load_profile(_write(tmp_path, "p.toml", PROFILES.replace(
        'known_deviations = "known.toml"\n', "known_intermittent = ['KIP-525/*']\n")), "release").known_intermittent
    verdict = classify(records(), known, flips)
    assert [r.cell_id for r, _ in verdict.known_intermittent] == [INTERMITTENT]
    assert verdict.stale == [] and not any(line.startswith("stale") for line in verdict.lines())


def test_given_the_profiles_cells_a_record_outside_them_is_not_judged_and_a_cell_without_one_is_named() -> None:
    every = records()
    outside = next(r for r in every if r.cell_id == FAIL)
    cells = {r.cell_id for r in every} - {FAIL} | {"KIP-525/create-returns-configs[2.6.3-zk|kafka-python:3.0.12]"}
    verdict = classify(every, [], (), cells)
    assert verdict.outside == [outside] and verdict.failed == [] and not verdict.ok
    assert verdict.missing == ["KIP-525/create-returns-configs[2.6.3-zk|kafka-python:3.0.12]"]
    lines = verdict.lines()
    assert f"outside the profile: {FAIL}: the profile selects no such cell; not judged" in lines
    assert "no record: KIP-525/create-returns-configs[2.6.3-zk|kafka-python:3.0.12]" in lines
    assert lines[-1].startswith("NOT qualified: 79 cells, 0 fail") and "1 outside the profile, 1 without a record" \
        in lines[-1]


# ----- through the installed console script: a resumed run of a profile with an adapter kind, nothing booted ------

ADAPTER_PROFILE = '[profiles.adapters]\nbrokers = ["2.6"]\nmodes = ["zk"]\nclients = ["wire", "kafka-python:3.0.12"]\n' \
                  'kips = ["KIP-525"]\n'


def resumable_run(tmp_path: Path, clients: list[str], cell_ids: list[str]) -> Path:
    """``Q/run`` as ``kcompat run --brokers 2.6 --mode zk --kip KIP-525 --clients CLIENTS`` leaves it (run.json's
    selection and claim book, coverage.json), with a passing record of each of ``cell_ids``."""
    import json

    from kcompat.harness.matrix.claims import claims_dir
    from kcompat.harness.matrix.runner import claims_json
    from kcompat.harness.records import Cell, append_record

    run = tmp_path / "q" / "run"
    run.mkdir(parents=True)
    selection = {"brokers": ["2.6"], "modes": "zk", "clients": clients, "kips": ["KIP-525"]}
    (run / "run.json").write_text(json.dumps({"schema_version": 3, "run_id": "r", "selection": selection,
                                              "claims": claims_json(claims_dir()), "resumed": []}))
    (run / "coverage.json").write_text("[]\n")
    for cell_id in cell_ids:
        cell = Cell.parse(cell_id)
        kind, _, version = cell.client.partition(":")
        append_record(run / "records.jsonl", Record(
            run_id="r", cell_id=cell_id, kip=cell.kip, claim_id=cell.claim_id, api="CreateTopics",
            broker_version=cell.broker_version, broker_mode=cell.broker_mode, provider="process",
            client_kind=kind.partition("@")[0], client_version=version or "0", outcome="pass", client=cell.client))
    return run


def _qualify_resumed(tmp_path: Path) -> tuple[int, list[str]]:
    from tests.console import kcompat

    profile = _write(tmp_path, "p.toml", ADAPTER_PROFILE)
    done = kcompat("qualify", "--profile", str(profile), "--out", str(tmp_path / "q"), "--resume", timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stderr.strip().splitlines()


def test_a_resumed_run_recording_a_cell_outside_the_profile_is_refused_before_anything_runs(tmp_path: Path) -> None:
    inside = "KIP-525/create-returns-configs[2.6.3-zk|kafka-python:3.0.12]"
    stray = "KIP-525/create-returns-configs[2.6.3-zk|java:4.4.0]"
    run = resumable_run(tmp_path, ["wire", "kafka-python:3.0.12"], [inside, stray])
    code, lines = _qualify_resumed(tmp_path)
    assert code == 1 and len(lines) == 1, lines  # the adapter kind is a client of the profile; the stray record is not
    assert f"{run / 'records.jsonl'} records 1 cell(s) outside profile adapters" in lines[0], lines
    assert f"e.g. {stray}" in lines[0], lines
    assert not (tmp_path / "q" / "page").exists() and not list(run.glob("pytest-*.log"))  # no run, no verdict


def test_a_resumed_run_of_another_selection_is_refused_before_anything_runs(tmp_path: Path) -> None:
    run = resumable_run(tmp_path, ["wire"], ["KIP-525/create-returns-configs[2.6.3-zk|wire]"])
    code, lines = _qualify_resumed(tmp_path)
    assert code == 1 and len(lines) == 1, lines
    assert f"{run} was started with another selection than profile adapters" in lines[0], lines
    assert "0 of its cells are not the profile's, 6 of the profile's are not in it" in lines[0], lines


def test_a_profile_naming_an_unpublished_release_is_one_line_before_anything_runs(tmp_path: Path) -> None:
    """The profile's clients are checked as ``kcompat run`` checks them, in the profile's words: not a second
    line from a child run that exited 2."""
    from tests.console import kcompat

    profile = _write(tmp_path, "p.toml", ADAPTER_PROFILE.replace("kafka-python:3.0.12", "java:9.9.9"))
    done = kcompat("qualify", "--profile", str(profile), "--out", str(tmp_path / "q"), timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1 and "Traceback" not in done.stderr, (done.returncode, lines)
    assert lines[0].startswith(f"kcompat: error: {profile}:") and "java:9.9.9" not in lines[0].split(":")[0], lines
    assert "9.9.9" in lines[0] and "profile adapters" in lines[0], lines
    assert not (tmp_path / "q" / "run").exists()
