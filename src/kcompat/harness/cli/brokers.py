"""``kcompat brokers``: the catalog, artifacts, and clusters booted by hand."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import click
from rich.markup import escape
from rich.table import Table

from ..artifacts import ArtifactStore
from ..catalog import BrokerRelease, Mode, load_catalog
from ..errors import HarnessError
from ..java import select_java
from ..providers.base import Cluster
from ..progress import step
from ..providers import reap_orphans
from ..reaper import reap_secrets
from ..render import render_properties, write_private
from ..spec import ClusterSpec, SaslSpec
from ..survey import SURVEY_APIS, SURVEY_DEFAULT, accepted_range, survey_record
from ..tools import admin_tool_commands
from . import check_provider
from .display import Reporter, harness_config, note, show


@click.group()
def brokers() -> None:
    """Real Kafka brokers: catalog, artifacts, clusters."""


def _java_label(java: Sequence[int]) -> str:
    return " or ".join(str(m) for m in java)


@brokers.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.pass_context
def list_brokers(ctx: click.Context, as_json: bool) -> None:
    """The catalog, and which versions are in the cache."""
    store = ArtifactStore(harness_config(ctx))
    table = Table("line", "newest", "jar", "modes", "java", "cached", "notes")
    for line in load_catalog():
        release = BrokerRelease(line.newest, line)
        cached = store.is_cached(release)
        notes = [f"+{a.coordinate}" for a in line.add] + [f"-{e.group}:{e.artifact}" for e in line.exclude]
        if as_json:
            click.echo(json.dumps({"line": line.line.line, "newest": str(line.newest), "scala": line.scala,
                                   "modes": list(line.modes), "java": list(line.java), "cached": cached,
                                   "notes": notes}))
            continue
        table.add_row(line.line.line, str(line.newest), f"kafka_{line.scala}", ",".join(line.modes),
                      _java_label(line.java), "yes" if cached else "-", " ".join(notes))
    if not as_json:
        show(table)


@brokers.command("fetch")
@click.argument("versions", nargs=-1, required=True)
@click.option("--verify", is_flag=True, help="Re-check the SHA-256 of every cached jar.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def fetch(ctx: click.Context, versions: tuple[str, ...], verify: bool, as_json: bool) -> None:
    """Download broker jars (and the Java that runs them) into the cache."""
    config = harness_config(ctx)
    reporter = Reporter(as_json)
    store = ArtifactStore(config)
    for text in versions:
        release = load_catalog().release(text)
        artifacts = reporter.fetch(store, release, verify=verify)
        java = select_java(release.line.java, config.cache_dir, offline=config.offline)
        if as_json:
            click.echo(json.dumps({"version": str(release.version), "jars": len(artifacts.classpath),
                                   "java": java.version, "manifest": str(store.manifest_path(release))}))


def _pairs(items: Sequence[str], option: str, shape: str, sep: str) -> list[tuple[str, str]]:
    pairs = []
    for item in items:
        key, found, value = item.partition(sep)
        if not found or not key:
            raise click.BadParameter(f"{item!r}: expected {shape}", param_hint=option)
        pairs.append((key, value))
    return pairs


def _spec(version: str, mode: str | None, nodes: int, sasl: bool, users: Sequence[str],
          properties: Sequence[str], classpath: Sequence[Path], java: Path | None) -> ClusterSpec:
    pairs = _pairs(users, "--user", "NAME:PASSWORD", ":")
    props = dict(_pairs(properties, "--property", "KEY=VALUE", "="))
    sasl_spec = SaslSpec(users=tuple(pairs)) if sasl or pairs else None
    return ClusterSpec.of(version, cast(Mode | None, mode), nodes=nodes, server_properties=props, sasl=sasl_spec,
                          extra_classpath=tuple(classpath), java=java)


def cluster_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.argument("version"),
        click.option("--mode", type=click.Choice(["kraft", "zk"]), help="Metadata mode (default: KRaft where supported)."),
        click.option("--nodes", type=click.IntRange(1, 9), default=1, show_default=True),
        click.option("--sasl", is_flag=True, help="SASL/PLAIN listener with an ACL authorizer."),
        click.option("--user", "users", multiple=True, metavar="NAME:PASSWORD", help="A SASL user (implies --sasl)."),
        click.option("--property", "properties", multiple=True, metavar="KEY=VALUE",
                     help="Extra server property (escaped as java.util.Properties reads it)."),
        click.option("--classpath", multiple=True, type=click.Path(path_type=Path, exists=True),
                     help="Extra broker classpath entry (plug-ins)."),
        click.option("--java", type=click.Path(path_type=Path, exists=True), help="The java binary to run brokers with."),
        click.option("--provider", metavar="NAME", help="Overrides the global --provider for this command."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _prepare(ctx: click.Context, reporter: Reporter, version: str, mode: str | None, nodes: int, sasl: bool,
             users: Sequence[str], properties: Sequence[str], classpath: Sequence[Path],
             java: Path | None) -> ClusterSpec:
    spec = _spec(version, mode, nodes, sasl, users, properties, classpath, java)
    reporter.fetch(ArtifactStore(harness_config(ctx)), spec.release)
    return spec


def _write_client_properties(cluster: Cluster) -> Path | None:
    sasl = cluster.spec.sasl
    if sasl is None:
        return None
    return write_private(cluster.run_dir / "client.properties", render_properties({
        "bootstrap.servers": cluster.bootstrap_servers,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "PLAIN",
        "sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required "
                            f'username="{sasl.super_user}" password="{sasl.super_password}";',
    }))


def _print_admin_tools(ctx: click.Context, cluster: Cluster, props: Path | None) -> None:
    """The release's own kafka-topics/kafka-configs/kafka-acls, ready to paste; a tools failure never stops ``up``."""
    try:
        with step(f"Kafka {cluster.spec.version}'s admin tools"):
            commands = admin_tool_commands(ArtifactStore(harness_config(ctx)), cluster, client_config=props)
    except HarnessError as exc:
        note(f"admin tools unavailable: {exc}")
        return
    note(f"Kafka {cluster.spec.version}'s own admin tools:")
    for name, command in commands:
        note(f"  # {name}\n  {command}")


@brokers.command("up")
@cluster_options
@click.pass_context
def up(ctx: click.Context, version: str, mode: str | None, nodes: int, sasl: bool, users: tuple[str, ...],
       properties: tuple[str, ...], classpath: tuple[Path, ...], java: Path | None, provider: str | None) -> None:
    """Boot a cluster, print its bootstrap servers, and keep it up until Ctrl-C (exit code 130)."""
    reporter = Reporter(False)
    config = harness_config(ctx)
    provider = check_provider(provider or config.provider)
    reap_orphans(config, ("process", provider))  # clusters of harness processes that were killed outright
    spec = _prepare(ctx, reporter, version, mode, nodes, sasl, users, properties, classpath, java)
    with reporter.boot(config, spec, provider) as cluster:
        click.echo(cluster.bootstrap_servers)
        note(f"Kafka {spec.version} ({spec.mode}, {spec.nodes} node(s), Java {cluster.java.version}) "
             f"ready in {cluster.boot_seconds:.1f}s; logs in {cluster.run_dir}")
        props = _write_client_properties(cluster)
        try:
            if props is not None:
                note(f"SASL/PLAIN super user {spec.sasl.super_user if spec.sasl else ''}: client config in "
                     f"{props} (removed at exit)")
            _print_admin_tools(ctx, cluster, props)
            note("Ctrl-C stops it.")
            while True:
                time.sleep(1)
                cluster.check_alive()
        except KeyboardInterrupt:
            note(f"stopping (up to {config.stop_grace:.0f}s for a controlled shutdown)…")
            raise
        finally:
            if props is not None:
                props.unlink(missing_ok=True)


@brokers.command("probe")
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print only the JSON object, no progress.")
@click.pass_context
def probe(ctx: click.Context, version: str, mode: str | None, nodes: int, sasl: bool, users: tuple[str, ...],
          properties: tuple[str, ...], classpath: tuple[Path, ...], java: Path | None, provider: str | None,
          as_json: bool) -> None:
    """Boot, print what the broker answered to ApiVersions as JSON, tear down."""
    reporter = Reporter(as_json)
    provider = check_provider(provider or harness_config(ctx).provider)
    reap_orphans(harness_config(ctx), ("process", provider))
    spec = _prepare(ctx, reporter, version, mode, nodes, sasl, users, properties, classpath, java)
    with reporter.boot(harness_config(ctx), spec, provider) as cluster:
        record = survey_record(cluster, provider)
    click.echo(json.dumps(record, indent=None if as_json else 1))


def survey_table(records: Sequence[dict[str, Any]]) -> Table:
    table = Table("API", *(f"{r['version']} {r['mode']}" for r in records), title="Request versions each broker accepts")
    for name in SURVEY_APIS:
        table.add_row(name, *(accepted_range(record, name) for record in records))
    table.add_row("Java", *(str(r["java"]) for r in records))
    table.add_row("boot (s)", *(f"{r['boot_seconds']:.1f}" for r in records))
    return table


@brokers.command("survey")
@click.argument("versions", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="One probe JSON object per line instead of the table.")
@click.pass_context
def survey(ctx: click.Context, versions: tuple[str, ...], as_json: bool) -> None:
    """Fetch and probe several versions; print which admin API versions each accepts."""
    reporter = Reporter(as_json)
    config = harness_config(ctx)
    reap_orphans(config, ("process", config.provider))
    specs = [ClusterSpec.of(text) for text in versions or SURVEY_DEFAULT]  # every name checked before a boot
    records = []
    for spec in specs:
        reporter.fetch(ArtifactStore(config), spec.release)
        with reporter.boot(config, spec, config.provider) as cluster:
            records.append(survey_record(cluster, config.provider))
        if as_json:
            click.echo(json.dumps(records[-1]))
    if not as_json:
        show(survey_table(records))


@brokers.command("features")
@click.argument("versions", nargs=-1)
@click.option("--check", is_flag=True, help="Compare with features.toml instead of printing; exit 1 on drift.")
@click.pass_context
def features(ctx: click.Context, versions: tuple[str, ...], check: bool) -> None:
    """Boot each release in its default KRaft configuration and measure its feature levels (ApiVersions v4):
    print features.toml's [[release]] entries, or with --check compare them with the file."""
    from ..features import load_features, measure, release_toml

    config = harness_config(ctx)
    book = load_features()
    specs = [ClusterSpec.of(text, "kraft") for text in versions or [str(v) for v in book.releases]]
    reap_orphans(config, ("process", config.provider))
    reporter, drift = Reporter(False), []
    for spec in specs:
        reporter.fetch(ArtifactStore(config), spec.release)
        with reporter.boot(config, spec, config.provider) as cluster:
            broker = cluster.brokers[0]
            entry = measure(spec.version, broker.host, broker.port, [r.name for r in cluster.api_versions if r.name])
        kept = book.releases.get(spec.version)
        if not check:
            click.echo(release_toml(entry))
        elif kept != entry:
            drift.append(f"Kafka {spec.version}: measured\n{release_toml(entry)}features.toml has\n"
                         f"{release_toml(kept) if kept else '(no entry)'}")
        else:
            click.echo(f"Kafka {spec.version}: features.toml agrees with what the broker answered")
    for text in drift:
        click.echo(text, err=True)
    if drift:
        sys.exit(1)


@brokers.command("check-catalog")
@click.option("--derive", is_flag=True,
              help="Print, as catalog.toml entries, each new release's entry derived from its jars (stdout; "
                   "the drift goes to stderr).")
@click.pass_context
def check_catalog(ctx: click.Context, derive: bool) -> None:
    """Compare the catalog's newest releases with Maven Central; exit 1 on drift."""
    from ..central import catalog_drift

    catalog = load_catalog()
    say = note if derive else click.echo  # with --derive, stdout is catalog.toml entries alone
    drift = catalog_drift(catalog)
    for line in drift:
        say(line)
    if derive:
        _print_derived(ctx)
    if drift:
        sys.exit(1)
    say(f"catalog is current: {len(catalog.lines)} lines, newest {catalog.newest()}")


def _print_derived(ctx: click.Context) -> None:
    """Each new release's catalog entry, derived from its jars on Maven Central (kept in the cache)."""
    from ..catalog import line_toml
    from ..central import new_releases
    from ..derive import derived_for

    catalog = load_catalog()
    for version in new_releases(catalog):
        try:
            lines = derived_for([str(version)], catalog, harness_config(ctx))
        except HarnessError as exc:  # a jar that can't be read, or has no version: the other releases still go on
            note(escape(f"kcompat: {version}: no entry derived: {exc}"))
            continue
        for line in lines:
            click.echo(line_toml(line))


@brokers.command("reap")
@click.option("--reused", is_flag=True, help="Also stop and remove the clusters --reuse left running.")
@click.pass_context
def reap(ctx: click.Context, reused: bool) -> None:
    """Kill brokers (processes and containers) left by kcompat processes that no longer exist, and remove the
    passwords their runs left behind."""
    config = harness_config(ctx)
    for line in reap_orphans(config, reused=reused):  # every provider
        click.echo(line)
    for secret in reap_secrets(config.run_root):
        click.echo(f"removed {secret} (credentials of a run whose kcompat process is gone)")
