"""``kcompat run``: a slice of the matrix into a run directory (docs/RECORDS.md).

Everything is checked before anything boots (KIPs, brokers, clients, the run
directory); then one pytest process runs every cell of the installed clients
(xdist workers grouped by cluster, so each distinct cluster boots once), and
one more per other confluent-kafka release, in a venv made for it.  All of
them append to the same records.jsonl.  The exit code is 0 only when every
selected cell got a judged verdict (pass, unsupported, deviation).
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any

import psutil

from ..catalog import DERIVED_FILE, line_toml, load_catalog, use_lines, used_lines
from ..clients import install_client
from ..clients.kinds import RunReleases, kind, kind_names
from ..clients.ref import ClientRef
from ..clients.venv import host_env
from ..config import HarnessConfig
from ..derive import derived_for
from ..errors import ConfigError, HarnessError
from ..progress import step
from ..protocol import definitions_release
from ..records import ACCEPTED, RECORDS_FILE, RUN_FILE, SCHEMA_VERSION, Record, append_record, read_records
from ..reaper import new_run_id, spawn
from ..versions import KafkaVersion
from . import kip_index
from .admin_docs import check_cells
from .admin_docs import coverage as admin_coverage
from .admin_docs import documenting_release
from .claims import API_KEYS, ClaimBook, claim_files, claims_digest, claims_dir, load_claim_book, scenarios_dir
from .plan import PlannedCell, Selection, client_refs, plan
from .select import select
from .summary import summary_lines

CHILD_GRACE = 60.0
INFLIGHT_DIR = "inflight"
"""Per test process, the cell it is running (``<pid>.json``), removed once its record is written: what a
process that died was doing."""
CRASHES_PER_CELL = 2
"""A cell in flight when its test process died this often is recorded as an infra_error (once is retried)."""
MAX_RESTARTS = 20
"""Test processes started again after deaths, per group of cells: a bound, not a budget."""
"""Seconds a pytest child gets to tear its clusters down after Ctrl-C before it is killed."""
Echo = Callable[[str], None]
NO_CELLS = "the selection has no cells (no claim of these KIPs applies to these clients)"


@dataclass(frozen=True)
class RunOptions:
    out: Path
    selection: Selection = Selection()
    workers: int = 0
    resume: bool = False
    pytest_args: tuple[str, ...] = ()
    """Extra pytest selection (``-m kip525``, ``-k validate``), passed to every pytest process."""
    settings: tuple[str, ...] = ()
    """Harness settings as pytest options (``--kc-provider=container``), passed to every pytest process,
    and the options of one-cell runs (``--kc-cell``, ``--kc-keep``)."""
    command: tuple[str, ...] = field(default_factory=lambda: tuple(sys.argv))
    allure: bool = False
    """Also write allure results (RUN_DIR/allure-results) and the HTML report (RUN_DIR/allure-report)."""
    claims: Path | None = None
    """A claim book from another directory (``--claims DIR``); None: the installed ``src/kcompat/scenarios/claims``."""


def settings_args(config: HarnessConfig) -> tuple[str, ...]:
    """The resolved harness settings as the pytest options every child process gets (run_root is the run's)."""
    values = {"cache_dir": config.cache_dir, "boot_timeout": config.boot_timeout, "provider": config.provider,
              "images": config.images or None, "image_base": config.image_base,
              "observations": config.observations, "adapter_deadline": config.adapter_deadline}
    flags = {"offline": config.offline, "keep_data": config.keep_data, "reuse": config.reuse, "pull": config.pull}
    return (tuple(f"--kc-{k.replace('_', '-')}={v}" for k, v in values.items() if v is not None)
            + tuple(f"--kc-{k.replace('_', '-')}" for k, on in flags.items() if on))


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _git_sha() -> str | None:
    root = Path(__file__).resolve().parent  # git finds the checkout from any folder inside it
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def _version(dist: str) -> str | None:
    try:
        return dist_version(dist)
    except PackageNotFoundError:
        return None


def claims_json(directory: Path) -> dict[str, Any]:
    """run.json's ``claims``: the book the verdicts were judged by (records carry each cell's ``documented``)."""
    return {"dir": str(directory), "files": sorted(p.name for p in claim_files(directory)),
            "sha256": claims_digest(directory)}


def _kinds_json(releases: Callable[[str], RunReleases]) -> dict[str, Any]:
    """run.json's entries about each client kind (``java_clients``, ``confluent``), as the kind writes them."""
    found: dict[str, Any] = {}
    for name in kind_names():
        write = kind(name).run_json
        if write is not None:
            found.update(write(releases(name)))
    return found


def _run_json(run_id: str, options: RunOptions, config: HarnessConfig, cells: Sequence[PlannedCell]) -> dict[str, Any]:
    refs = [ClientRef.parse(c) for c in options.selection.clients]

    def releases(name: str) -> RunReleases:
        return RunReleases(tuple(r.version for r in refs if r.kind == name and r.version),
                           tuple(c.client.version for c in cells if c.client.kind == name and c.client.version))

    return {
        "schema_version": SCHEMA_VERSION, "run_id": run_id, "started_at": _now(), "ended_at": None,
        "command": list(options.command),
        "selection": {**options.selection.as_json(), "pytest_args": list(options.pytest_args),
                      "workers": options.workers, "settings": list(options.settings), "allure": options.allure},
        "kcompat_version": _version("kcompat"), "git_sha": _git_sha(), "provider": config.provider,
        "catalog": [str(line.newest) for line in load_catalog()],
        **_kinds_json(releases), "kio_version": _version("kio"), "wire_definitions": _wire_definitions(),
        "machine": {"hostname": platform.node(), "platform": platform.platform(), "cpus": os.cpu_count(),
                    "memory_gb": round(psutil.virtual_memory().total / 2**30, 1), "python": platform.python_version()},
        "claims": claims_json(claims_dir(options.claims)), "resumed": [], "exit_code": None,
    }


Prepared = tuple[RunOptions, list[PlannedCell], dict[str, Any]]
"""What ``prepare`` checked and laid out: the options (a resumed run's own), the cells, run.json."""


def prepare(options: RunOptions, config: HarnessConfig) -> Prepared:
    """Validate everything and lay out the run directory; nothing boots here."""
    _check_out(options.out, options.resume)
    run: dict[str, Any] = {}
    if options.resume:
        run = read_run(options.out)
        options = _resumed(options, run)
        run["resumed"] = [*run.get("resumed", ()), _now()]
    book = load_claim_book(claims_dir(options.claims))
    cells = checked_cells(options.selection, book, config, options.pytest_args)
    coverage = None if options.resume else (book.coverage() + _javadoc_coverage(book, cells, config)
                                             + kip_index.coverage(book, claims_dir(options.claims)))
    if not options.resume:
        run = _run_json(new_run_id(), options, config, cells)
    try:
        if coverage is not None:
            options.out.mkdir(parents=True, exist_ok=True)
            (options.out / "coverage.json").write_text(json.dumps(coverage, indent=1) + "\n")
        (options.out / RUN_FILE).write_text(json.dumps(run, indent=1) + "\n")
        if used_lines():  # the run's test processes read them from here
            (options.out / DERIVED_FILE).write_text("".join(line_toml(line) for line in used_lines()))
    except OSError as exc:
        raise ConfigError(f"--out {options.out}: can't write a run directory there "
                          f"({exc.strerror or exc}: {exc.filename or options.out})") from None
    return options, cells, run


def checked_cells(selection: Selection, book: ClaimBook, config: HarnessConfig,
                  pytest_args: Sequence[str] = ()) -> list[PlannedCell]:
    """The cells a run of ``selection`` (and its ``-m``/``-k``) runs, every name in it checked, each problem one
    line before anything boots.  ``kcompat run`` and ``run --plan`` both come here, so a plan accepts exactly
    what a run accepts.  A release the catalog lacks and Maven Central publishes runs with the entry derived
    from its jars (``derive.py``)."""
    use_lines(derived_for(selection.brokers, load_catalog(), config))
    cells = plan(selection, book, load_catalog())
    for name in kind_names():
        check = kind(name).check_release  # an unpublished release (Maven Central, PyPI): one line naming the nearest
        for release in sorted({c.client.version for c in cells if c.client.kind == name and c.client.version}):
            if check is not None:
                check(release, config)
    if not cells:
        raise ConfigError(NO_CELLS)
    expressions = dict(zip(pytest_args[::2], pytest_args[1::2], strict=False))  # ("-m", EXPR, "-k", EXPR)
    cells = select(cells, expressions.get("-m"), expressions.get("-k"))
    _check_pins(selection, cells)
    check_cells(cells, book, config)
    return cells


def _check_pins(selection: Selection, cells: Sequence[PlannedCell]) -> None:
    """A pin the selection names (``wire@v5``) must be a request version the kind can send of at least one of its
    cells' APIs: one no API has would boot brokers only to learn no request can be made.  A cell whose own API
    lacks the version is a real observation (the client can't build that request: limited by the client)."""
    given = {ref for ref in client_refs(selection) if ref.pin is not None}
    for ref in sorted(given):
        pins = kind(ref.kind).pins
        apis = sorted({c.claim.api for c in cells if c.client == ref})
        if pins is None or not apis:
            continue
        ranges = {api: pins(API_KEYS[api]) for api in apis}
        if not any(ref.pin in sent for sent in ranges.values()):
            newest = max(ranges.items(), key=lambda item: item[1][-1] if item[1] else -1)
            can = f"v{newest[1][0]}-v{newest[1][-1]}" if newest[1] else "none"
            raise ConfigError(f"client '{ref}': {kind(ref.kind).library} have v{ref.pin} of none of "
                              f"the selection's APIs ({', '.join(apis)}; {newest[0]}: {can}); pin another version")


def _wire_definitions() -> str | None:
    """run.json's ``wire_definitions``; None where the definitions can't be had yet (a derived release whose jar
    Maven doesn't serve): the wire client's cells then say why, one by one."""
    try:
        return definitions_release()
    except HarnessError:
        return None


def _check_out(out: Path, resume: bool) -> None:
    """``--out`` as a run directory, refused in one line before anything boots: a file, a path under a file, a
    directory holding anything but (with ``--resume``) a run."""
    for path in (out, *out.parents):
        if path.exists():
            if not path.is_dir():
                raise ConfigError(f"--out {out}: {path} is a file, not a directory")
            break
    if resume:
        if not (out / RUN_FILE).is_file():
            raise ConfigError(f"--resume: {out} has no {RUN_FILE}; it is not a kcompat run directory")
    elif out.is_dir() and any(out.iterdir()):
        again = (f"continue it with `kcompat run --out {shlex.quote(str(out))} --resume`, or choose another --out"
                 if (out / RUN_FILE).is_file() else "choose another --out (it holds no kcompat run)")
        raise ConfigError(f"--out {out} exists and is not empty: {again}")


def read_run(run_dir: Path) -> dict[str, Any]:
    """A run directory's run.json, or one line naming the file and why it can't be read."""
    path = run_dir / RUN_FILE
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path} can't be read: {exc}") from None
    if not isinstance(run, dict):
        raise ConfigError(f"{path} holds {type(run).__name__}, not a JSON object")
    return run


def recorded_claims(run: dict[str, Any], run_dir: Path) -> tuple[Path, str | None] | None:
    """run.json's ``claims``, the book the run was judged by: its directory and digest (``claims_json``); None
    for a run from before run.json named it.  Any other shape is one line naming the file and the field."""
    claims = run.get("claims")
    if claims is None:
        return None
    if isinstance(claims, dict) and isinstance(claims.get("dir"), str) and claims["dir"].strip() \
            and isinstance(claims.get("sha256", ""), str):
        return Path(claims["dir"]), claims.get("sha256")
    raise ConfigError(f"{run_dir / RUN_FILE}: field 'claims' is {json.dumps(claims)[:80]}, not an object "
                      'with a "dir" string (and a "sha256" one)')


def _resumed(options: RunOptions, run: dict[str, Any]) -> RunOptions:
    """The options of the run in ``options.out`` (run.json's ``selection`` and ``claims``), to continue it."""
    claims = recorded_claims(run, options.out)
    chosen = run.get("selection")
    malformed = ConfigError(f"{options.out / RUN_FILE}: field 'selection' is {json.dumps(chosen)[:80]}, not the "
                            "selection kcompat run writes (brokers, modes, clients, kips)")
    if not isinstance(chosen, dict):
        raise malformed
    try:
        resumed = RunOptions(options.out, Selection.of(chosen["brokers"], chosen["modes"], chosen["clients"],
                                                       chosen["kips"]),
                             options.workers or int(chosen.get("workers", 0)), True,
                             tuple(chosen.get("pytest_args", ())), tuple(chosen.get("settings", ())),
                             options.command, bool(chosen.get("allure", False)) or options.allure,
                             None if claims is None else claims[0])
    except ConfigError:
        raise  # a name it holds is unknown here: that name's own line
    except (KeyError, TypeError, AttributeError, ValueError):
        raise malformed from None
    if claims is not None and claims[1] is None:
        raise ConfigError(f"{options.out / RUN_FILE}: field 'claims' has no \"sha256\", so whether its book "
                          "changed since the run started can't be told; start a new run")
    if claims is not None and claims_digest(claims_dir(claims[0])) != claims[1]:
        raise ConfigError(f"--resume: the claims in {claims[0]} changed since the run started; "
                          "start a new run so one run is judged by one claim book")
    return resumed


def _methods(rows: Sequence[dict[str, Any]], release: str) -> dict[str, bool]:
    """Each public method of a release's Admin interface in coverage rows: whether any claim judges it."""
    methods: dict[str, bool] = {}
    for row in rows:
        if row.get("release") == release and row.get("method") != "*":
            methods[row["method"]] = methods.get(row["method"], False) or bool(row["testable"])
    return methods


def _javadoc_coverage(book: ClaimBook, cells: Sequence[PlannedCell], config: HarnessConfig) -> list[dict[str, Any]]:
    """The coverage rows of the run's javadoc documents: every public method of the Admin interface of each
    kafka-clients release documenting one of its cells."""
    rows: list[dict[str, Any]] = []
    for document in book.kips.values():
        if document.is_javadoc:
            releases = {documenting_release(c.client.kind, c.client.version, config)
                        for c in cells if c.claim.kip == document.kip}
            rows.extend(admin_coverage(document, sorted(releases, key=KafkaVersion.parse), config))
    return rows


def _groups(cells: Sequence[PlannedCell]) -> dict[ClientRef | None, list[PlannedCell]]:
    """Cells by the Python that runs them: None for this one, else the release (``confluent:2.0.2``) whose
    kind makes it a Python of its own (a venv)."""
    groups: dict[ClientRef | None, list[PlannedCell]] = {}
    for cell in cells:
        own = kind(cell.client.kind).own_python(cell.client.version)
        groups.setdefault(ClientRef(cell.client.kind, cell.client.version) if own else None, []).append(cell)
    return groups


def _pytest(python: Path | str, options: RunOptions, clients: Sequence[str], log: Path, echo: Echo | None) -> int:
    scenarios = scenarios_dir()
    selection = options.selection
    # --capture=sys: what a client library writes to the process's own stderr (librdkafka's assertion before it
    # aborts the process) reaches the log, where the run reads why a test process died.
    command = [str(python), "-m", "pytest", str(scenarios), "-o", "addopts=", "-p", "no:cacheprovider",
               "--import-mode=importlib", "-q", "--no-header", "-rfE", "--capture=sys",
               "--junitxml", str(log.with_name(log.stem.replace("pytest-", "junit-") + ".xml")),
               "--kc-run-dir", str(options.out), "--kc-run-root", str(options.out / "logs"),
               "--kc-brokers", ",".join(selection.brokers), "--kc-modes", selection.modes,
               "--kc-clients", ",".join(clients), "--kc-resume", "--kc-no-summary", *options.settings]
    if selection.kips:
        command += ["--kc-kips", ",".join(selection.kips)]
    if options.claims is not None:
        command += ["--kc-claims", str(options.claims)]
    if options.allure:
        command += ["--alluredir", str(options.out / "allure-results")]
    if options.workers > 0:
        command += ["-n", str(options.workers), "--dist", "loadgroup"]
    else:
        command += ["-p", "no:xdist"]
    command += list(options.pytest_args)
    with log.open("ab") as out:
        out.write(f"$ {shlex.join(command)}\n".encode())
        # Started beside the kcompat package, never in the user's working directory (whose folders could shadow
        # a module the run imports).
        process = spawn(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=str(scenarios.parent.parent),
                        env=host_env())  # host_env: a confluent venv's Python finds kcompat
        assert process.stdout is not None
        try:
            for line in process.stdout:
                out.write(line)
                out.flush()
                if echo is not None:
                    echo(line.decode(errors="replace").rstrip("\n"))
            return process.wait()
        except BaseException:  # Ctrl-C or SIGTERM here: pytest tears its clusters down, bounded
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=CHILD_GRACE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            raise


def mark_inflight(run_dir: Path, cell_id: str) -> Path:
    """Note the cell this process is about to run (``INFLIGHT_DIR``); the caller removes it once recorded."""
    marker = run_dir / INFLIGHT_DIR / f"{os.getpid()}.json"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"cell_id": cell_id, "started_at": _now()}))
    return marker


def _inflight(out: Path) -> list[str]:
    """The cells test processes were running when they stopped without recording them; the markers removed."""
    found: list[str] = []
    for marker in sorted((out / INFLIGHT_DIR).glob("*.json")):
        try:
            found.append(str(json.loads(marker.read_text())["cell_id"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a marker torn by the death itself names nothing
        marker.unlink(missing_ok=True)
    return found


def _death(log: Path, since: int) -> str:
    """What the log says of a test process's death since byte ``since``: the library's own words where it
    wrote any (librdkafka's ``*** file:line: assert ***``), else Python's fatal error line."""
    try:
        with log.open("rb") as handle:
            handle.seek(since)
            text = handle.read().decode(errors="replace")
    except OSError:
        return "no log"
    lines = [line.strip() for line in text.splitlines()]
    said = [found[0] for line in lines if (found := re.search(r"\*\*\* .+ \*\*\*", line))]  # after pytest's dots
    fatal = [line for line in lines if line.startswith("Fatal Python error")]
    return (said or fatal or ["no fatal error line"])[-1][:300]


def _pytest_until_done(python: Path | str, options: RunOptions, clients: Sequence[str], log: Path,
                       echo: Echo | None, cells: Sequence[PlannedCell], run: dict[str, Any],
                       config: HarnessConfig) -> tuple[int, list[str]]:
    """pytest for one group of cells, started again while a test process dies with cells left (a client
    library that aborts the process must cost its own cell, never the run's rest): a cell in flight at
    ``CRASHES_PER_CELL`` deaths becomes an infra_error naming what the log says of them."""
    crashes: dict[str, int] = {}
    problems: list[str] = []
    _inflight(options.out)  # a killed earlier run's markers say nothing of this one
    for _ in range(MAX_RESTARTS + 1):
        since = log.stat().st_size if log.exists() else 0
        code = _pytest(python, options, clients, log, echo)
        running = _inflight(options.out)
        if code in (0, 1, 5):
            return code, problems
        death = _death(log, since)
        problems.append(f"pytest for {', '.join(clients)} exited {code} ({death}); see {log}")
        latest = {r.cell_id: r for r in read_records(options.out / RECORDS_FILE).records}
        for cell_id in running:
            if cell_id in latest:  # it died closing the cell's client, after the verdict: that is observed too
                append_record(options.out / RECORDS_FILE, died_closing(latest[cell_id], death, log.name))
            else:
                crashes[cell_id] = crashes.get(cell_id, 0) + 1
        left = [c for c in cells if c.cell.id not in latest]
        if not left:  # the last cell's close, say: every cell has its verdict
            return code, problems
        dead = [c for c in left if crashes.get(c.cell.id, 0) >= CRASHES_PER_CELL]
        said = f"the test process died during this cell {CRASHES_PER_CELL} times: {death} (see {log.name})"
        _infra(dead, run, options.out, said, config, aborted=death if library_words(death) else None)
        if not running and not dead:
            return code, problems  # it died outside any cell: starting it again would die the same way
        if echo is not None:
            echo(f"kcompat: a test process died ({death}); {len(left) - len(dead)} cell(s) left, starting again")
    return code, problems


def died_closing(record: Record, death: str, log: str) -> Record:
    """A cell's record once its test process died closing the cell's client, after the call was judged: the
    client library's own abort (librdkafka's assertion) or a close that never returns (kcompat ends the process,
    ``env.close_bounded``) is what an application using it would meet, so a judged cell becomes a deviation
    keeping its observation, with the death as one more difference."""
    reason = (f"the test process ended while the cell's client closed, after the call "
              f"({death}; see {log}); the call itself: {record.outcome}" + (f" ({record.reason})" if record.reason
                                                                             else ""))
    if record.outcome not in ("pass", "unsupported", "deviation"):
        return dataclasses.replace(record, reason=reason)
    return dataclasses.replace(
        record, outcome="deviation", limited_by=None, reason=reason, observed={**record.observed, "closed": death},
        differences=[*record.differences, {"key": "closed", "documented": "the client closes", "observed": death}])


def library_words(death: str) -> bool:
    """Whether a test process's death is told in a library's words (librdkafka's ``*** file:line: assert
    ***``, kcompat's line for a close that never returned, the interpreter's ``Fatal Python error`` of a
    native crash), rather than unknown: what a client library does to its process, every time, is what an
    application using it meets."""
    return death.startswith("***") or death.startswith("Fatal Python error")


def _infra(cells: Sequence[PlannedCell], run: dict[str, Any], out: Path, reason: str, config: HarnessConfig,
           aborted: str | None = None) -> None:
    """Cells whose client could not even be installed, or whose test process died in them every time:
    infra_error records, so the rest still runs; a death the client library itself told (``aborted``) is
    the cell's observation instead, a deviation: no document says a call ends the process."""
    judged: dict[str, Any] = {} if aborted is None else {
        "outcome": "deviation", "observed": {"aborted": aborted},
        "differences": [{"key": "aborted", "documented": "the call returns", "observed": aborted}]}
    for planned in cells:
        claim = planned.claim
        append_record(out / RECORDS_FILE, Record(
            run_id=run["run_id"], cell_id=planned.cell.id, kip=claim.kip, claim_id=claim.id, api=claim.api,
            broker_version=str(planned.version), broker_mode=planned.mode, provider=config.provider,
            broker_features=dict(planned.cell.broker_features),
            client_settings=planned.client.settings_for(str(planned.version)),
            client_kind=planned.client.kind, client_version=planned.client.version or "",
            client=str(planned.client), broker_nodes=claim.cluster.nodes, security=claim.cluster.profile,
            required_versions={"min": claim.min_version, "max": claim.max_version}, reason=reason,
            started_at=_now(), **{"outcome": "infra_error", **judged}))


def allure_cli() -> str | None:
    """The Allure command line scripts/bootstrap.sh installs (npm's allure-commandline), else one on PATH."""
    local = Path(sys.prefix) / "allure" / "node_modules" / ".bin" / "allure"
    return str(local) if local.is_file() else shutil.which("allure")


def allure_report(out: Path) -> list[str]:
    """RUN_DIR/allure-report from RUN_DIR/allure-results; problems as lines."""
    cli = allure_cli()
    if cli is None:
        return ["no Allure command line found (scripts/bootstrap.sh installs it with npm); the results are in "
                f"{out / 'allure-results'}"]
    log = out / "allure.log"
    with log.open("wb") as sink:
        try:
            subprocess.run([cli, "generate", str(out / "allure-results"), "-o", str(out / "allure-report"),
                            "--clean"], stdout=sink, stderr=sink, check=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as exc:
            return [f"the Allure report could not be generated ({exc}); see {log}"]
    return []


@dataclass
class RunResult:
    exit_code: int
    records: list[Record]
    missing: list[str]
    problems: list[str]
    lines: list[str]


def _install_clients(cells: Sequence[PlannedCell], config: HarnessConfig) -> None:
    """Every adapter of the run built (or found built) before any cell, each one progress step: a build is no
    part of a cell's time, and shown even without ``echo`` (a silent minute reads as a hang).  One that fails
    is left to its cells, whose records say why (infra_error)."""
    for ref in sorted({ClientRef(c.client.kind, c.client.version) for c in cells}, key=str):
        try:
            install_client(ref, config)
        except ConfigError:
            raise
        except HarnessError:
            pass


def run_matrix(options: RunOptions, config: HarnessConfig, *, echo: Echo | None = None) -> RunResult:
    return run_prepared(prepare(options, config), config, echo=echo)


def run_prepared(prepared: Prepared, config: HarnessConfig, *, echo: Echo | None = None) -> RunResult:
    """Run what ``prepare`` checked: a caller that tells a user's mistake from a failure prepares first."""
    options, cells, run = prepared
    _install_clients(cells, config)
    given = {ref.pin for ref in client_refs(options.selection) if ref.pin is not None}
    problems: list[str] = []
    # test processes that died and were started again: told, but every cell still has its own verdict (a
    # death in a cell is recorded in it), so they alone don't fail the run
    deaths: list[str] = []
    for release, group in _groups(cells).items():
        # the references as selected (pinned wire cells are planned again per claim in each process)
        clients = sorted({str(c.client) for c in group if c.client.pin is None or c.client.pin in given})
        log = options.out / f"pytest-{'main' if release is None else f'{release.kind}-{release.version}'}.log"
        python: Path | str = sys.executable
        make = None if release is None else kind(release.kind).python
        if release is not None and make is not None and release.version is not None:
            try:
                with step(f"the Python of {release}"):  # a new release's venv: pip for a minute or more
                    python = make(release.version, config, log)
            except HarnessError as exc:
                done = {r.cell_id for r in read_records(options.out / RECORDS_FILE).records}
                _infra([c for c in group if c.cell.id not in done], run, options.out, str(exc), config)
                continue
        # 1: some cell failed (its record says why); 5: all cells already done; else it died (restarted)
        _, died = _pytest_until_done(python, options, clients, log, echo, group, run, config)
        deaths += died
    if options.allure:
        problems += allure_report(options.out)
    report = read_records(options.out / RECORDS_FILE)
    latest = {r.cell_id: r for r in report.records}
    wanted = {c.cell.id for c in cells}
    selected: set[str] = set()
    for path in options.out.glob("selected-*.json"):
        selected |= set(json.loads(path.read_text()))
    missing = sorted((selected & wanted) - set(latest))
    if options.pytest_args == ():
        missing = sorted(wanted - set(latest))  # without a -m/-k selection every planned cell must have a verdict
    if report.skipped:
        problems.append(f"{report.skipped} line(s) of {RECORDS_FILE} could not be read")
    bad = sorted(cid for cid, r in latest.items() if r.outcome not in ACCEPTED)
    code = 1 if bad or missing or problems else 0
    problems = deaths + problems
    lines = summary_lines(report.records)
    rows = json.loads((options.out / "coverage.json").read_text())
    coverage = [row for row in rows if "method" not in row]
    untestable = sum(1 for row in coverage if not row["testable"])
    lines.append(f"coverage: {len(coverage)} KIP statements, {len(coverage) - untestable} with claims, "
                 f"{untestable} not testable (reasons in coverage.json)")
    for release in sorted({row["release"] for row in rows if "method" in row}, key=KafkaVersion.parse):
        methods = _methods(rows, release)
        read = {str(row["note"]).rsplit("; ", 1)[-1] for row in rows if row.get("release") == release and row.get("note")}
        lines.append(f"coverage: kafka-clients {release}'s Admin: {len(methods)} public methods, "
                     f"{sum(methods.values())} with claims (the others' reasons in coverage.json)"
                     + "".join(f"; {r}" for r in sorted(read)))
    run.update(_kinds_json(lambda name: RunReleases((), (), tuple(
        (r.client_version, r.librdkafka_version) for r in latest.values() if r.client_kind == name))))
    run["broker_java"] = sorted({r.java_version for r in latest.values() if r.java_version})
    run["ended_at"] = _now()
    run["exit_code"] = code
    (options.out / RUN_FILE).write_text(json.dumps(run, indent=1) + "\n")
    grouped: dict[tuple[str, str], list[str]] = {}
    for cid in bad:
        grouped.setdefault((latest[cid].outcome, latest[cid].reason or ""), []).append(cid)
    for (outcome, reason), ids in grouped.items():
        named = ids[0] if len(ids) == 1 else f"{len(ids)} cells ({ids[0]}, ...)"
        problems.append(f"{named}: {outcome}: {reason}")
    return RunResult(code, list(latest.values()), missing, problems, lines)
