"""``kcompat clients``: what each client sends to, and gets from, a real broker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import click
from rich.table import Table

from ..artifacts import ArtifactStore, check_release_name
from ..catalog import Mode, load_catalog
from ..central import check_client_release
from ..clients import Endpoint, NewTopic, client_for, install_client, kind, kind_names, parse_clients
from ..clients.check import check as check_client
from ..clients.java import close_sidecars
from ..clients.limits import measure, python_for
from ..clients.wire import WireClient
from ..errors import ConfigError
from ..matrix.admin_docs import check_names
from ..matrix.admin_docs import coverage as admin_coverage
from ..matrix.claims import claims_dir, load_claim_book
from ..operations import perform
from ..operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from ..progress import step
from ..providers import reap_orphans
from ..spec import ClusterSpec
from ..survey import SURVEY_OPERATIONS, cell_summary, client_cells, default_clients
from .display import Reporter, harness_config, show

SURVEY_TOPIC = "kcompat-survey"


@click.group()
def clients() -> None:
    """The client axis: what each client sends to, and gets from, a real broker."""


@clients.command("survey")
@click.argument("version")
@click.option("--mode", type=click.Choice(["kraft", "zk"]))
@click.option("--client", "names", multiple=True, metavar="KIND[:VERSION]",
              help="wire, confluent, java:<kafka-clients release> (default: wire, confluent, oldest and newest java)")
@click.option("--json", "as_json", is_flag=True, help="One AdminResult record per line instead of the table.")
@click.pass_context
def clients_survey(ctx: click.Context, version: str, mode: str | None, names: tuple[str, ...], as_json: bool) -> None:
    """Boot one broker; show the request version each client sends and what it gets back."""
    reporter = Reporter(as_json)
    config = harness_config(ctx)
    refs = parse_clients(names or default_clients(load_catalog()))  # checked before anything boots
    for ref in refs:
        install_client(ref.resolved(), config, quiet=as_json)  # an adapter is built before the broker boots
    reap_orphans(config, ("process", config.provider))
    spec = ClusterSpec.of(version, cast(Mode | None, mode))
    reporter.fetch(ArtifactStore(config), spec.release)
    table = Table("client", *SURVEY_OPERATIONS,
                  title=f"What each client sent to Kafka {spec.version} ({spec.mode}), and got")
    try:
        with reporter.boot(config, spec, config.provider) as cluster:
            endpoint = Endpoint(cluster.bootstrap_servers)
            seed = WireClient(endpoint)
            perform(seed, CREATE_TOPICS, CreateTopicsArgs([NewTopic(SURVEY_TOPIC, 1, 1)]))
            seed.close()
            for ref in refs:
                admin = client_for(ref, endpoint, config, broker=str(spec.version))
                try:
                    results = client_cells(admin, SURVEY_TOPIC)
                finally:
                    admin.close()
                if as_json:
                    for result in results:
                        click.echo(json.dumps(result.as_json()))
                table.add_row(str(ref.resolved()), *(cell_summary(r) for r in results))
    finally:
        close_sidecars()
    if not as_json:
        show(table)


@clients.command("check")
@click.argument("refs", nargs=-1, required=True, metavar="KIND[:RELEASE]...")
@click.option("--broker", "version", default=None, metavar="VERSION",
              help="The broker to check against (default: the catalog's newest).")
@click.option("--json", "as_json", is_flag=True, help="One line per operation and client instead of the tables.")
@click.pass_context
def clients_check(ctx: click.Context, refs: tuple[str, ...], version: str | None, as_json: bool) -> None:
    """Drive every operation each client has once against a real broker and read each answer against
    docs/ADAPTERS.md: conforms, lacking (the client has no such operation) or broken (and why).  Exit 1 if any
    answer is broken."""
    config = harness_config(ctx)
    parsed = [ref.resolved() for ref in parse_clients(refs)]  # checked before anything boots
    for ref in parsed:  # an unpublished release: one line naming the nearest, before anything boots
        check = kind(ref.kind).check_release
        if check is not None and ref.version is not None:
            check(ref.version, config)
    for ref in parsed:
        install_client(ref, config, quiet=as_json)  # an adapter is built before the broker boots
    reap_orphans(config, ("process", config.provider))
    catalog = load_catalog()
    spec = ClusterSpec.of(version or str(catalog.lines[-1].newest))
    reporter = Reporter(as_json)
    reporter.fetch(ArtifactStore(config), spec.release)
    broken = 0
    try:
        with reporter.boot(config, spec, config.provider) as cluster:
            endpoint = Endpoint(cluster.bootstrap_servers)
            seed = WireClient(endpoint)
            made = iter(range(1, 1 << 20))

            def topic_for(operation: str) -> str:
                name = f"kcompat-check-{next(made)}"
                perform(seed, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
                return name

            try:
                for ref in parsed:
                    rows = check_client(client_for(ref, endpoint, config, broker=str(spec.version)),
                                        seed.api_versions(), topic_for)
                    broken += sum(1 for row in rows if row.status == "broken")
                    if as_json:
                        for row in rows:
                            click.echo(json.dumps({"client": str(ref), "broker": str(spec.version), **row.as_json()}))
                        continue
                    table = Table("operation", "status", "seconds", "problems",
                                  title=f"{ref} against Kafka {spec.version} ({spec.mode}): "
                                        f"{sum(r.status == 'conforms' for r in rows)} conform, "
                                        f"{sum(r.status == 'lacking' for r in rows)} lacking, "
                                        f"{sum(r.status == 'broken' for r in rows)} broken")
                    for row in rows:
                        table.add_row(row.operation, row.status,
                                      "" if row.seconds is None else f"{row.seconds:.2f}", "; ".join(row.problems))
                    show(table)
            finally:
                seed.close()
    finally:
        close_sidecars()
    if broken:
        raise click.exceptions.Exit(1)


@clients.command("limits")
@click.argument("refs", nargs=-1, required=True, metavar="KIND[:RELEASE]...")
@click.option("--json", "as_json", is_flag=True, help="One JSON line per release (the lines of src/kcompat/harness/clients/"
                                                       "limits.jsonl) instead of the table.")
@click.pass_context
def clients_limits(ctx: click.Context, refs: tuple[str, ...], as_json: bool) -> None:
    """Measure the oldest and newest request version per API a client release sends, against a stub broker
    on loopback that offers every version; cached per release and used by the matrix.  Every kind whose
    limits can't be asked of the client is measured: confluent (librdkafka) and every adapter kind
    (e.g. franz-go:1.22.2); wire and java state their own."""
    config = harness_config(ctx)
    parsed = [ref.resolved() for ref in parse_clients(refs)]  # checked before anything is installed
    measured = [name for name in kind_names() if kind(name).measured]
    for ref in parsed:
        if not kind(ref.kind).measured:
            raise ConfigError(f"{ref}: only {', '.join(measured)} is measured; the other kinds state their own "
                              "limits (kio's schemas, kafka-clients' ApiKeys)")
    for ref in parsed:
        log = config.cache_dir / "client-limits" / f"{ref.kind}-{ref.version}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        install_client(ref, config, quiet=as_json)  # a build is a step of its own, not the measurement's
        with step(f"measuring {ref}'s limits", quiet=as_json):
            limits = measure(ref, config, python_for(ref, config, log))
        if as_json:
            click.echo(json.dumps(limits.as_json()))
            continue
        table = Table("API", "oldest version sent", "newest version sent",
                      title=f"{limits.ref}, measured {limits.measured_at}", caption=limits.how)
        for api, version in sorted(limits.newest.items()):
            oldest = limits.oldest.get(api)
            table.add_row(api, "-" if oldest is None else f"v{oldest}", f"v{version}")
        show(table)


@clients.command("admin-docs")
@click.argument("releases", nargs=-1, required=True, metavar="RELEASE...")
@click.option("--claims", "claims", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The claim book whose DOCS-admin claims are listed (default: the installed one).")
@click.option("--json", "as_json", is_flag=True, help="One coverage row per line (coverage.json's shape).")
@click.pass_context
def clients_admin_docs(ctx: click.Context, releases: tuple[str, ...], claims: Path | None, as_json: bool) -> None:
    """Every public method of kafka-clients RELEASE's Admin interface: the brokers its javadoc says support
    it (read from the release's sources jar on Maven Central), and the claims judging it, or why none."""
    config = harness_config(ctx)
    for release in releases:  # a release Maven Central does not publish: one line naming the nearest
        check_client_release(check_release_name(release), config)
    book = load_claim_book(claims_dir(claims))
    document = next((d for d in book.kips.values() if d.is_javadoc), None)
    if document is None:
        raise ConfigError(f"the claim book {claims_dir(claims)} has no javadoc document (source = \"javadoc:Admin\")")
    check_names(document, config, lambda claim: releases)
    rows = admin_coverage(document, releases, config)
    if as_json:
        for row in rows:
            click.echo(json.dumps(row))
        return
    for release in releases:
        mine = [r for r in rows if r["release"] == release]
        notes = sorted({r["note"] for r in mine if r.get("note")})
        table = Table("method", "statement", "brokers", "claims", title=f"kafka-clients {release}: Admin",
                      caption="; ".join(notes) or None)
        for row in mine:
            table.add_row(row["method"], row["statement"], f"{row['minimum']}+" if row.get("minimum") else "",
                          ", ".join(c.split("/", 1)[1] for c in row["claims"]) or f"none: {row['reason']}")
        show(table)
