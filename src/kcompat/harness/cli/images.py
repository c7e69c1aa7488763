"""``kcompat images``: broker images for the container provider, built locally."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from ..artifacts import ArtifactStore
from ..catalog import load_catalog
from .display import Reporter, harness_config

if TYPE_CHECKING:
    from ..containers.images import ImagePlan


@click.group()
def images() -> None:
    """Broker images for the container provider, built locally (no registry needed)."""


@images.command("build")
@click.argument("versions", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per image.")
@click.option("--plan", is_flag=True, help="Print what would be built (Dockerfile, base, tag); needs no engine.")
@click.pass_context
def build_images(ctx: click.Context, versions: tuple[str, ...], as_json: bool, plan: bool) -> None:
    """Build (or find, when unchanged) the image of each version; `all` means every catalog line."""
    from ..containers.images import ImageBuilder

    reporter = Reporter(as_json)
    config = harness_config(ctx)
    catalog = load_catalog()
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
    from ..containers.images import ImageBuilder

    for tag in ImageBuilder(harness_config(ctx)).prune():
        click.echo(f"removed {tag}")


@images.command("list")
def list_images() -> None:
    """The kcompat images on the engine."""
    from ..containers import engine

    for image in engine.client().images.list(filters={"label": engine.LABEL_CONTENT}):
        size = image.attrs.get("Size", 0) / 1e6
        click.echo(f"{' '.join(image.tags) or image.short_id}  {size:.0f} MB  "
                   f"Kafka {image.labels.get(engine.LABEL_VERSION, '?')}  Java {image.labels.get('io.kcompat.java', '?')}")
