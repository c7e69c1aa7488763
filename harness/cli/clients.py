"""``kcompat clients``: what each client sends to, and gets from, a real broker."""

from __future__ import annotations

import json
from typing import cast

import click
from rich.table import Table

from ..artifacts import ArtifactStore
from ..catalog import Mode, load_catalog
from ..clients import Endpoint, NewTopic, client_for, parse_clients
from ..clients.java import close_sidecars
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
    reap_orphans(config, ("process", config.provider))
    spec = ClusterSpec.of(version, cast(Mode | None, mode))
    reporter.fetch(ArtifactStore(config), spec.release)
    table = Table("client", *SURVEY_OPERATIONS,
                  title=f"What each client sent to Kafka {spec.version} ({spec.mode}), and got")
    try:
        with reporter.boot(config, spec, config.provider) as cluster:
            endpoint = Endpoint(cluster.bootstrap_servers)
            seed = client_for("wire", endpoint, config)
            seed.create_topics([NewTopic(SURVEY_TOPIC, 1, 1)])
            seed.close()
            for ref in refs:
                admin = client_for(ref, endpoint, config)
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
