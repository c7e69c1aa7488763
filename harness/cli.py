"""``kcompat``: the command line.  Thin: parses options, shows progress, calls the harness.

Every ``HarnessError`` ends the command with one line on stderr and exit code 1.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from .artifacts import ArtifactStore, BrokerArtifacts
from .catalog import BrokerRelease, Mode, load_catalog
from .clients import (
    AdminClient,
    AdminResult,
    ConfigTarget,
    Endpoint,
    NewPartitions,
    NewTopic,
    client_for,
    parse_clients,
)
from .clients.java import close_sidecars
from .config import HarnessConfig
from .errors import HarnessError
from .java import select_java
from .providers import PROVIDERS, provider_for, reap_orphans
from .providers.base import Cluster
from .reaper import install_signal_handlers, reap_secrets
from .render import write_private
from .spec import ClusterSpec, SaslSpec

if TYPE_CHECKING:
    from .containers.images import ImagePlan

# What the survey shows: the admin APIs the seed KIPs are about, and their neighbours.
SURVEY_APIS = ("Metadata", "CreateTopics", "DeleteTopics", "CreatePartitions", "DescribeConfigs",
               "AlterConfigs", "IncrementalAlterConfigs", "CreateAcls", "DescribeAcls",
               "DescribeCluster", "SaslAuthenticate")
SURVEY_DEFAULT = ("0.11", "2.4", "3.9", "4.4")

stderr = Console(stderr=True)


class Reporter:
    """Progress on stderr (silent with ``--json``): downloads, then boot stages."""

    def __init__(self, quiet: bool):
        self.quiet = quiet

    @contextmanager
    def task(self, description: str, total: float | None = None) -> Iterator[Callable[..., None]]:
        if self.quiet:
            yield lambda *args, **kwargs: None
            return
        columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn()]
        with Progress(*columns, console=stderr, transient=True) as progress:
            task_id = progress.add_task(description, total=total)

            def update(text: str | None = None, advance: float = 0) -> None:
                progress.update(task_id, description=text or description, advance=advance)

            yield update
        stderr.print(f"[green]✓[/] {description}")

    def fetch(self, store: ArtifactStore, release: BrokerRelease, *, verify: bool = False) -> BrokerArtifacts:
        cached = store.is_cached(release)
        label = f"Kafka {release.version}: {'cached' if cached else 'downloading from Maven Central'}"
        with self.task(label) as update:
            def downloads(files: int, size: int) -> None:
                update(f"Kafka {release.version}: {files} files, {size / 1e6:.1f} MB downloaded")

            return store.resolve(release, verify_hashes=verify, progress=downloads)

    def boot(self, config: HarnessConfig, spec: ClusterSpec, provider: str) -> Cluster:
        stages = spec.nodes * 2 + 2  # resolve, ZooKeeper or format, then start and ready per broker
        with self.task(f"booting {spec.label} ({provider})", total=stages) as update:
            def step(line: str) -> None:
                update(f"{spec.label}: {line}", advance=1)

            return provider_for(provider, config, progress=step).start(spec)


def _config(ctx: click.Context) -> HarnessConfig:
    config: HarnessConfig = ctx.obj
    return config


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--cache-dir", type=click.Path(path_type=Path), help="Maven repo, classpaths, JDKs [KCOMPAT_CACHE_DIR].")
@click.option("--run-root", type=click.Path(path_type=Path), help="Where run directories and logs go [KCOMPAT_RUN_ROOT].")
@click.option("--offline", is_flag=True, default=None, help="Use only the cache [KCOMPAT_OFFLINE].")
@click.option("--boot-timeout", type=float, help="Seconds a cluster may take to be ready [KCOMPAT_BOOT_TIMEOUT].")
@click.option("--provider", type=click.Choice(sorted(PROVIDERS)),
              help="How brokers run: local JVMs or Docker containers [KCOMPAT_PROVIDER; default process].")
@click.option("--reuse", is_flag=True, default=None,
              help="Containers: leave clusters running for the next run with the same spec [KCOMPAT_REUSE].")
@click.option("--images", metavar="VERSION=IMAGE,...",
              help="Containers: existing images to use per version, e.g. 3.7.0=apache/kafka:3.7.0 [KCOMPAT_IMAGES].")
@click.option("--image-base", type=click.Choice(["offline", "registry"]),
              help="Containers: base of built images: a local JDK, or eclipse-temurin [KCOMPAT_IMAGE_BASE].")
@click.option("--pull", is_flag=True, default=None, help="Containers: allow pulling missing images [KCOMPAT_PULL].")
@click.pass_context
def main(ctx: click.Context, cache_dir: Path | None, run_root: Path | None, offline: bool | None,
         boot_timeout: float | None, provider: str | None, reuse: bool | None, images: str | None,
         image_base: str | None, pull: bool | None) -> None:
    """kcompat: Apache Kafka admin-API compatibility harness."""
    ctx.obj = _run(lambda: HarnessConfig.resolve(
        cache_dir=cache_dir, run_root=run_root, offline=offline, boot_timeout=boot_timeout, provider=provider,
        reuse=reuse, images=images, image_base=image_base, pull=pull))


def run() -> None:
    """The console script: signals unwind into teardown (not done for in-process callers of ``main``)."""
    install_signal_handlers()
    main()


@main.group()
def brokers() -> None:
    """Real Kafka brokers: catalog, artifacts, clusters."""


def _run(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except HarnessError as exc:
        stderr.print(f"[red]kcompat: error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(1)


def _java_label(java: Sequence[int]) -> str:
    return " or ".join(str(m) for m in java)


@brokers.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.pass_context
def list_brokers(ctx: click.Context, as_json: bool) -> None:
    """The catalog, and which versions are in the cache."""
    store = ArtifactStore(_config(ctx))
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
        Console().print(table)


@brokers.command("fetch")
@click.argument("versions", nargs=-1, required=True)
@click.option("--verify", is_flag=True, help="Re-check the SHA-256 of every cached jar.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def fetch(ctx: click.Context, versions: tuple[str, ...], verify: bool, as_json: bool) -> None:
    """Download broker jars (and the Java that runs them) into the cache."""
    config = _config(ctx)
    reporter = Reporter(as_json)
    store = ArtifactStore(config)

    def work() -> None:
        for text in versions:
            release = load_catalog().release(text)
            artifacts = reporter.fetch(store, release, verify=verify)
            java = select_java(release.line.java, config.cache_dir, offline=config.offline)
            if as_json:
                click.echo(json.dumps({"version": str(release.version), "jars": len(artifacts.classpath),
                                       "java": java.version, "manifest": str(store.manifest_path(release))}))

    _run(work)


def _spec(version: str, mode: str | None, nodes: int, sasl: bool, users: Sequence[str],
          properties: Sequence[str], classpath: Sequence[Path], java: Path | None) -> ClusterSpec:
    pairs = []
    for item in users:
        name, sep, password = item.partition(":")
        if not sep:
            raise click.BadParameter(f"--user {item!r}: expected NAME:PASSWORD")
        pairs.append((name, password))
    props = {}
    for item in properties:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"--property {item!r}: expected KEY=VALUE")
        props[key] = value
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
        click.option("--property", "properties", multiple=True, metavar="KEY=VALUE", help="Extra server property."),
        click.option("--classpath", multiple=True, type=click.Path(path_type=Path, exists=True),
                     help="Extra broker classpath entry (plug-ins)."),
        click.option("--java", type=click.Path(path_type=Path, exists=True), help="The java binary to run brokers with."),
        click.option("--provider", type=click.Choice(sorted(PROVIDERS)),
                     help="Overrides the global --provider for this command."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _prepare(ctx: click.Context, reporter: Reporter, version: str, mode: str | None, nodes: int, sasl: bool,
             users: Sequence[str], properties: Sequence[str], classpath: Sequence[Path],
             java: Path | None) -> ClusterSpec:
    spec = _spec(version, mode, nodes, sasl, users, properties, classpath, java)
    reporter.fetch(ArtifactStore(_config(ctx)), spec.release)
    return spec


def _write_client_properties(cluster: Cluster) -> Path | None:
    sasl = cluster.spec.sasl
    if sasl is None:
        return None
    return write_private(
        cluster.run_dir / "client.properties",
        f"bootstrap.servers={cluster.bootstrap_servers}\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
        f'username="{sasl.super_user}" password="{sasl.super_password}";\n',
    )


@brokers.command("up")
@cluster_options
@click.pass_context
def up(ctx: click.Context, version: str, mode: str | None, nodes: int, sasl: bool, users: tuple[str, ...],
       properties: tuple[str, ...], classpath: tuple[Path, ...], java: Path | None, provider: str | None) -> None:
    """Boot a cluster, print its bootstrap servers, and keep it up until Ctrl-C."""
    reporter = Reporter(False)
    provider = provider or _config(ctx).provider

    def work() -> None:
        reap_orphans(_config(ctx), ("process", provider))  # clusters of harness processes killed outright
        spec = _prepare(ctx, reporter, version, mode, nodes, sasl, users, properties, classpath, java)
        with reporter.boot(_config(ctx), spec, provider) as cluster:
            click.echo(cluster.bootstrap_servers)
            stderr.print(f"Kafka {spec.version} ({spec.mode}, {spec.nodes} node(s), Java {cluster.java.version}) "
                         f"ready in {cluster.boot_seconds:.1f}s; logs in {cluster.run_dir}")
            props = _write_client_properties(cluster)
            if props is not None:
                stderr.print(f"SASL/PLAIN super user {spec.sasl.super_user if spec.sasl else ''}: client config in "
                             f"{props} (removed at exit)")
            stderr.print("Ctrl-C stops it.")
            try:
                while True:
                    time.sleep(1)
                    cluster.check_alive()
            except KeyboardInterrupt:
                stderr.print("stopping…")
            finally:
                if props is not None:
                    props.unlink(missing_ok=True)

    _run(work)


def probe_record(cluster: Cluster, provider: str) -> dict[str, Any]:
    spec = cluster.spec
    return {
        "version": str(spec.version),
        "mode": spec.mode,
        "nodes": spec.nodes,
        "provider": provider,
        "java": cluster.java.version,
        "boot_seconds": round(cluster.boot_seconds, 3),
        "api_versions": [r.as_json() for r in sorted(cluster.api_versions, key=lambda r: r.api_key)],
    }


@brokers.command("probe")
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print only the JSON object, no progress.")
@click.pass_context
def probe(ctx: click.Context, version: str, mode: str | None, nodes: int, sasl: bool, users: tuple[str, ...],
          properties: tuple[str, ...], classpath: tuple[Path, ...], java: Path | None, provider: str | None,
          as_json: bool) -> None:
    """Boot, print what the broker answered to ApiVersions as JSON, tear down."""
    reporter = Reporter(as_json)
    provider = provider or _config(ctx).provider

    def work() -> None:
        reap_orphans(_config(ctx), ("process", provider))
        spec = _prepare(ctx, reporter, version, mode, nodes, sasl, users, properties, classpath, java)
        with reporter.boot(_config(ctx), spec, provider) as cluster:
            record = probe_record(cluster, provider)
        click.echo(json.dumps(record, indent=None if as_json else 1))

    _run(work)


def survey_table(records: Sequence[dict[str, Any]]) -> Table:
    table = Table("API", *(f"{r['version']} {r['mode']}" for r in records), title="Request versions each broker accepts")
    for name in SURVEY_APIS:
        cells = []
        for record in records:
            found = next((a for a in record["api_versions"] if a["name"] == name), None)
            cells.append("-" if found is None else f"v{found['min_version']}-v{found['max_version']}")
        table.add_row(name, *cells)
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
    config = _config(ctx)

    def work() -> None:
        reap_orphans(config, ("process", config.provider))
        records = []
        for text in versions or SURVEY_DEFAULT:
            spec = ClusterSpec.of(text)
            reporter.fetch(ArtifactStore(config), spec.release)
            with reporter.boot(config, spec, config.provider) as cluster:
                records.append(probe_record(cluster, config.provider))
            if as_json:
                click.echo(json.dumps(records[-1]))
        if not as_json:
            Console().print(survey_table(records))

    _run(work)


@brokers.command("check-catalog")
def check_catalog() -> None:
    """Compare the catalog's newest releases with Maven Central; exit 1 on drift."""
    from .central import catalog_drift

    drift = _run(lambda: catalog_drift(load_catalog()))
    for line in drift:
        click.echo(line)
    if drift:
        sys.exit(1)
    click.echo(f"catalog is current: {len(load_catalog().lines)} lines, newest {load_catalog().newest()}")


@main.group()
def clients() -> None:
    """The client axis: what each client sends to, and gets from, a real broker."""


def _default_clients() -> tuple[str, ...]:
    java = load_catalog().java_clients
    return ("wire", "confluent", f"java:{java[0].version}", f"java:{java[-1].version}")


def client_cells(admin: AdminClient, topic: str) -> list[AdminResult]:
    """One call of each admin operation, as a client would make it against a fresh topic."""
    return [
        admin.create_topics([NewTopic(f"{topic}-new", 2, 1)], validate_only=True),
        admin.create_partitions([NewPartitions(topic, 2)], validate_only=True),
        admin.describe_configs([ConfigTarget("topic", topic)], include_synonyms=True, include_documentation=True),
        admin.list_topics(),
    ]


def _cell(result: AdminResult) -> str:
    sent = "-" if result.request_version is None else f"v{result.request_version}"
    if result.exception:
        return f"{sent} {result.exception.rsplit('.', 1)[-1]}"
    errors = {r.error_name for r in result.resources if r.error_code}
    extra = []
    if result.operation == "create_topics":  # KIP-525: offered by the client, and filled by the broker?
        fields = [r.fields for r in result.resources]
        if "configs" not in result.result_fields:
            extra.append("no configs")
        elif any(f.get("configs") for f in fields):
            extra.append("+configs")
        else:
            failed = {str(f.get("configs.exception", "")).rsplit(".", 1)[-1] for f in fields} - {""}
            extra.append(f"configs: {', '.join(sorted(failed)) or 'empty'}")
    if result.operation == "describe_configs":
        extra.append("+doc" if "configs.documentation" in result.result_fields else "no doc")
    return " ".join([sent, *extra, *sorted(errors)])


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
    config = _config(ctx)

    def work() -> None:
        refs = parse_clients(names or _default_clients())  # checked before anything boots
        reap_orphans(config, ("process", config.provider))
        spec = ClusterSpec.of(version, cast(Mode | None, mode))
        reporter.fetch(ArtifactStore(config), spec.release)
        table = Table("client", "CreateTopics", "CreatePartitions", "DescribeConfigs", "Metadata",
                      title=f"What each client sent to Kafka {spec.version} ({spec.mode}), and got")
        try:
            with reporter.boot(config, spec, config.provider) as cluster:
                endpoint = Endpoint(cluster.bootstrap_servers)
                seed = client_for("wire", endpoint, config)
                seed.create_topics([NewTopic("kcompat-survey", 1, 1)])
                seed.close()
                for ref in refs:
                    admin = client_for(ref, endpoint, config)
                    try:
                        results = client_cells(admin, "kcompat-survey")
                    finally:
                        admin.close()
                    if as_json:
                        for result in results:
                            click.echo(json.dumps(result.as_json()))
                    table.add_row(str(ref.resolved()), *(_cell(r) for r in results))
        finally:
            close_sidecars()
        if not as_json:
            Console().print(table)

    _run(work)


@brokers.command("reap")
@click.option("--reused", is_flag=True, help="Also stop and remove the clusters --reuse left running.")
@click.pass_context
def reap(ctx: click.Context, reused: bool) -> None:
    """Kill brokers (processes and containers) left by kcompat processes that no longer exist."""
    for line in _run(lambda: reap_orphans(_config(ctx), reused=reused)):  # every provider
        click.echo(line)
    for secret in reap_secrets(_config(ctx).run_root):
        click.echo(f"removed {secret} (credentials of a run whose kcompat process is gone)")


@main.group()
def images() -> None:
    """Broker images for the container provider, built locally (no registry needed)."""


@images.command("build")
@click.argument("versions", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per image.")
@click.option("--plan", is_flag=True, help="Print what would be built (Dockerfile, base, tag); needs no engine.")
@click.pass_context
def build_images(ctx: click.Context, versions: tuple[str, ...], as_json: bool, plan: bool) -> None:
    """Build (or find, when unchanged) the image of each version; `all` means every catalog line."""
    from .containers.images import ImageBuilder

    reporter = Reporter(as_json)
    config = _config(ctx)
    catalog = load_catalog()

    def work() -> None:
        releases = ([catalog.release(line.newest) for line in catalog.lines] if versions == ("all",)
                    else [catalog.release(v) for v in versions])
        for release in releases:
            reporter.fetch(ArtifactStore(config), release)
            if plan:
                _print_plan(ImageBuilder(config).plan(release), as_json)
                continue
            with reporter.task(f"image of Kafka {release.version}") as update:
                image = ImageBuilder(config, progress=lambda line: update(line)).image_for(release)
            record = {"version": str(release.version), "image": image.tag, "java": image.java.version,
                      "built": image.built, "build_seconds": round(image.build_seconds, 2)}
            click.echo(json.dumps(record) if as_json else
                       f"{image.tag}  Java {image.java.version}  "
                       + (f"built in {image.build_seconds:.1f}s" if image.build_seconds else "up to date"))

    _run(work)


def _print_plan(plan: ImagePlan, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(plan.as_json()))
    elif plan.dockerfile is None:
        click.echo(f"Kafka {plan.release.version}: {plan.tag} (named; used as it is)")
    else:
        click.echo(f"Kafka {plan.release.version}: {plan.label} from {plan.dockerfile} on {plan.base} "
                   f"(Java {plan.java}, {plan.jars} jars)"
                   + ("" if plan.tag else "; the tag's hash needs the base's id, known once an engine has it"))


@images.command("prune")
@click.pass_context
def prune_images(ctx: click.Context) -> None:
    """Remove kcompat images a newer build replaced (and Java bases nothing uses)."""
    from .containers.images import ImageBuilder

    for tag in _run(lambda: ImageBuilder(_config(ctx)).prune()):
        click.echo(f"removed {tag}")


@images.command("list")
def list_images() -> None:
    """The kcompat images on the engine."""
    def work() -> None:
        from .containers import engine

        for image in engine.client().images.list(filters={"label": engine.LABEL_CONTENT}):
            size = image.attrs.get("Size", 0) / 1e6
            click.echo(f"{' '.join(image.tags) or image.short_id}  {size:.0f} MB  "
                       f"Kafka {image.labels.get(engine.LABEL_VERSION, '?')}  Java {image.labels.get('io.kcompat.java', '?')}")

    _run(work)


__all__ = ["main", "probe_record", "survey_table"]


@main.command("run")
@click.option("--brokers", "brokers_", metavar="V,V|all", help="Broker versions or lines (default 2.3,2.6,3.9,4.4).")
@click.option("--clients", metavar="REF,REF",
              help="wire, confluent, confluent:2.0.2, java:3.7.0 (default wire,confluent,java:2.3.1,java:4.4.0).")
@click.option("--kip", "kips", multiple=True, metavar="KIP-N", help="KIPs to run (repeatable; default all).")
@click.option("--mode", type=click.Choice(["default", "zk", "kraft", "all"]), default="default", show_default=True,
              help="Metadata modes: each line's own, one of them, or every mode a line has.")
@click.option("--provider", "provider", type=click.Choice(sorted(PROVIDERS)),
              help="How brokers run (overrides the global --provider).")
@click.option("-n", "workers", type=click.IntRange(0, 16), default=0, help="pytest-xdist workers (0: one process).")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="The run directory (must not exist).")
@click.option("--resume", is_flag=True, help="Continue the run in --out: recorded cells are kept, the rest run.")
@click.option("-m", "markexpr", help="pytest marker selection, e.g. kip525 or createtopics.")
@click.option("-k", "keyword", help="pytest keyword selection on cell ids.")
@click.option("--quiet", is_flag=True, help="Only the summary, not pytest's progress.")
@click.option("--allure", is_flag=True, help="Also allure results and the HTML report in the run directory.")
@click.pass_context
def run_command(ctx: click.Context, brokers_: str | None, clients: str | None, kips: tuple[str, ...], mode: str,
                provider: str | None, workers: int, out: Path, resume: bool, markexpr: str | None,
                keyword: str | None, quiet: bool, allure: bool) -> None:
    """Run a slice of the compatibility matrix into a run directory (records.jsonl, run.json, logs)."""
    import dataclasses

    from .matrix.plan import Selection
    from .matrix.runner import RunOptions, run_matrix, settings_args

    config = _config(ctx)
    if provider is not None:
        config = dataclasses.replace(config, provider=provider)
    selection = Selection.of(brokers_, mode, clients, kips)
    extra = (("-m", markexpr) if markexpr else ()) + (("-k", keyword) if keyword else ())
    options = RunOptions(out.absolute(), selection, workers, resume, extra, settings_args(config), allure=allure)

    def work() -> int:
        reap_orphans(config, ("process", config.provider))
        result = run_matrix(options, config, echo=None if quiet else click.echo)
        click.echo("")
        for line in result.lines:
            click.echo(line)
        for problem in result.problems[:20]:
            stderr.print(f"kcompat: {problem}", highlight=False, soft_wrap=True)
        if result.missing:
            stderr.print(f"kcompat: {len(result.missing)} cell(s) got no verdict: {', '.join(result.missing[:10])}"
                         + (" ..." if len(result.missing) > 10 else ""), highlight=False, soft_wrap=True)
        click.echo(f"run directory: {options.out}")
        return result.exit_code

    code = _run(work)
    ctx.exit(code)


def _record_line(label: str, record: Any) -> str:
    if record is None:
        return f"{label}: no record"
    side = f" (limited by {record.limited_by})" if record.limited_by else ""
    sent = f", sent v{record.request_version}" if record.request_version is not None else ""
    return f"{label}: {record.outcome}{side}{sent}" + (f": {record.reason}" if record.reason else "")


@main.command("repro")
@click.argument("cell_id")
@click.option("--run", "run_dir", type=click.Path(path_type=Path), help="The run that recorded the cell.")
@click.option("--out", type=click.Path(path_type=Path), help="Where this run goes (default: under the run root).")
@click.option("--keep", is_flag=True, help="Leave the cluster up after the cell and print its address; Ctrl-C stops it.")
@click.pass_context
def repro_command(ctx: click.Context, cell_id: str, run_dir: Path | None, out: Path | None, keep: bool) -> None:
    """Run one cell again (same broker, mode, cluster, client) and compare with the recorded verdict."""
    from .matrix.repro import recorded, resolve_cell, run_cell

    config = _config(ctx)

    def work() -> int:
        cell = resolve_cell(cell_id, run_dir)
        before = recorded(cell, run_dir) if run_dir is not None else None
        target = (out or config.run_root / f"repro-{time.strftime('%Y%m%d-%H%M%S')}").absolute()
        reap_orphans(config, ("process", config.provider))
        now = run_cell(cell, config, target, keep=keep, echo=click.echo if keep else None)
        if run_dir is not None:
            click.echo(_record_line(f"recorded ({run_dir})", before))
        click.echo(_record_line("now", now))
        if now is not None and now.differences:
            for difference in now.differences:
                click.echo(f"  {difference['key']}: documented {json.dumps(difference['documented'])}, "
                           f"observed {json.dumps(difference['observed'])}")
        click.echo(f"run directory: {target}")
        same = now is not None and (before is None or before.outcome == now.outcome)
        return 0 if same and now is not None and now.outcome not in ("fail", "infra_error") else 1

    ctx.exit(_run(work))


@main.command("bisect")
@click.argument("claim_id")
@click.option("--client", required=True, help="Client reference, e.g. java:4.4.0 or wire.")
@click.option("--good", required=True, help="A release with the old behaviour (e.g. 2.3.1).")
@click.option("--bad", required=True, help="A release with the new behaviour (e.g. 2.4.1).")
@click.option("--mode", type=click.Choice(["default", "zk", "kraft"]), default="default", show_default=True)
@click.option("--out", type=click.Path(path_type=Path), help="Where the runs go (default: under the run root).")
@click.pass_context
def bisect_command(ctx: click.Context, claim_id: str, client: str, good: str, bad: str, mode: str,
                   out: Path | None) -> None:
    """The first Kafka release (every published patch between the two) where a cell's verdict or observation changed."""
    from .clients import ClientRef
    from .matrix.repro import bisect, signature

    config = _config(ctx)

    def work() -> int:
        ref = ClientRef.parse(client).resolved()
        target = (out or config.run_root / f"bisect-{time.strftime('%Y%m%d-%H%M%S')}").absolute()
        reap_orphans(config, ("process", config.provider))
        first, steps, releases = bisect(claim_id, str(ref), good, bad, mode, config, target, click.echo)
        click.echo(f"releases in range: {len(releases)} ({releases[0]} .. {releases[-1]}); booted: {len(steps)}")
        if first is None:
            click.echo(f"no change: {claim_id} through {ref} behaves the same on {good} and {bad}")
            return 0
        before = max((s for s in steps if s.release < first), key=lambda s: s.release)
        after = next(s for s in steps if s.release == first)
        click.echo(f"first release that differs: {first} (after {before.release})")
        click.echo(_record_line(f"  {before.release}", before.record))
        click.echo(_record_line(f"  {first}", after.record))
        for key, (old, new) in _changed(before.record, after.record).items():
            click.echo(f"  {key}: {old} -> {new}")
        click.echo(f"run directories: {target}")
        return 0 if signature(after.record) != signature(before.record) else 1

    ctx.exit(_run(work))


def _changed(before: Any, after: Any) -> dict[str, tuple[str, str]]:
    if before is None or after is None:
        return {}
    keys = sorted(set(before.observed) | set(after.observed))
    return {k: (json.dumps(before.observed.get(k)), json.dumps(after.observed.get(k)))
            for k in keys if before.observed.get(k) != after.observed.get(k) and k != "error_message"}
