"""The container provider's own behaviour: images, faults, cleanup, reuse.

What brokers do in containers (boot, 3 nodes, SASL/ACLs, plug-ins, clients) is
checked by running the ``provider``-marked suites again with
``--kc-provider container`` (scripts/test.sh).  These tests need a Docker
engine; without one they fail with the engine's one-line error.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from kcompat.harness import BootError, ClusterSpec, HarnessConfig
from kcompat.harness.containers import engine
from kcompat.harness.containers.images import ImageBuilder, registry_base
from kcompat.harness.containers.reuse import remove_reused, reuse_key
from kcompat.harness.errors import ImageError

from kcompat.harness.providers.container import ContainerProvider
from kcompat.harness.protocol import WireConnection
from kcompat.harness.reaper import owner_token

pytestmark = pytest.mark.container
VERSION = "3.9"


def _containers_of_run(run_id: str) -> list[str]:
    return [c.name for c in engine.containers(**{engine.LABEL_RUN: run_id})]


def _base_of(image: str) -> str:
    """The imported Java base ``image`` was built on (its tag carries the host JDK's fingerprint)."""
    return next(tag for layer in engine.client().api.history(image) for tag in layer.get("Tags") or ()
                if tag.startswith("kcompat/jre:"))


def test_an_image_is_built_once_and_tagged_by_its_content(kc_config: HarnessConfig) -> None:
    builder = ImageBuilder(kc_config)
    release = ClusterSpec.of(VERSION).release
    first = builder.image_for(release)
    again = builder.image_for(release)
    assert again.tag == first.tag and again.build_seconds == 0.0
    assert first.tag.startswith(f"kcompat/kafka:{release.version}-")
    labels = engine.client().images.get(first.tag).labels
    assert labels[engine.LABEL_VERSION] == str(release.version)
    assert first.tag.endswith(labels[engine.LABEL_CONTENT][:12])


def test_prune_removes_replaced_images_and_keeps_current_ones(kc_config: HarnessConfig) -> None:
    builder = ImageBuilder(kc_config)
    current = builder.image_for(ClusterSpec.of(VERSION).release)
    stale = f"kcompat/kafka:{current.release.version}-000000000000"
    stale_base = f"kcompat/jre:{current.java.major}-000000000000"
    client = engine.client()
    client.images.get(current.tag).tag(stale)
    client.images.get(_base_of(current.tag)).tag(stale_base)
    removed = builder.prune()
    assert stale in removed and stale_base in removed
    assert current.tag not in removed and engine.image_present(current.tag)
    assert not engine.image_present(stale) and not engine.image_present(stale_base)


def test_a_broker_that_exits_in_its_container(kc_config: HarnessConfig) -> None:
    provider = ContainerProvider(kc_config)
    spec = ClusterSpec.of(VERSION, "kraft", server_properties={"authorizer.class.name": "no.such.Authorizer"})
    with pytest.raises(BootError) as caught:
        provider.start(spec)
    message = str(caught.value)
    assert "broker 1 (Kafka 3.9.2, container) exited with code" in message
    assert "no.such.Authorizer" in message and "\n" not in message
    assert caught.value.log is not None and "no.such.Authorizer" in caught.value.log.read_text()
    assert _containers_of_run(provider.run_id) == []


def test_a_named_image_is_used_as_it_is(kc_config: HarnessConfig) -> None:
    built = ImageBuilder(kc_config).image_for(ClusterSpec.of(VERSION).release)
    name = f"example.invalid/kafka:{VERSION}-{uuid.uuid4().hex[:6]}"
    engine.client().images.get(built.tag).tag(name)
    try:
        config = dataclasses.replace(kc_config, images=f"{VERSION}={name}")
        provider = ContainerProvider(config)
        with provider.start(ClusterSpec.of(VERSION, "kraft")) as cluster:
            assert not cluster.image.built and cluster.image.tag == name
            assert cluster.java.major == built.java.major  # asked of the image's own java
            used = {c.attrs["Config"]["Image"] for c in engine.containers(**{engine.LABEL_RUN: provider.run_id})}
            assert used == {name}
            conn = WireConnection(cluster.brokers[0].host, cluster.brokers[0].port)
            assert conn.api_versions()
            conn.close()
        assert _containers_of_run(provider.run_id) == []
    finally:
        engine.client().images.remove(name)


def test_a_named_image_without_kafka_is_a_clear_error(kc_config: HarnessConfig) -> None:
    """A Java-only image (the offline base itself) named for 3.9: the KRaft format can't find its class."""
    built = ImageBuilder(kc_config).image_for(ClusterSpec.of(VERSION).release)
    base = _base_of(built.tag)
    provider = ContainerProvider(dataclasses.replace(kc_config, images=f"{VERSION}={base}"))
    with pytest.raises(BootError, match=r"storage format of node 1 \(Kafka 3.9.2, container\) exited with code 1"
                       r".*kafka.tools.StorageTool") as caught:
        provider.start(ClusterSpec.of(VERSION, "kraft"))
    assert "\n" not in str(caught.value)
    assert _containers_of_run(provider.run_id) == []


def test_a_named_image_that_is_not_local_is_never_pulled(kc_config: HarnessConfig) -> None:
    config = dataclasses.replace(kc_config, images=f"{VERSION}=example.invalid/kafka:absent")
    with pytest.raises(ImageError, match=r"not on this engine.*hint: docker pull example.invalid/kafka:absent"):
        ContainerProvider(config).start(ClusterSpec.of(VERSION, "kraft"))


def test_the_registry_base_is_never_pulled_and_is_built_on_when_local(kc_config: HarnessConfig) -> None:
    """The ``registry`` build path end to end.  This machine has no registry, so unless the real
    eclipse-temurin image is already here, a local stand-in gets its name: the offline base plus
    a label, so that its id (and so the broker image's content hash) differs from the offline one."""
    release = ClusterSpec.of(VERSION).release
    offline = ImageBuilder(kc_config).image_for(release)
    config = dataclasses.replace(kc_config, image_base="registry")
    base = registry_base(offline.java.major)
    client = engine.client()
    stand_in = not engine.image_present(base)
    if stand_in:
        with pytest.raises(ImageError, match=rf"image {base} \(the registry base of Java {offline.java.major}\) "
                           rf"is not on this engine.*hint: docker pull {base}"):
            ImageBuilder(config).image_for(release)
        assert not engine.image_present(base)
        dockerfile = f"FROM {_base_of(offline.tag)}\nLABEL io.kcompat.test=registry-stand-in\n"
        client.images.build(fileobj=io.BytesIO(dockerfile.encode()), tag=base, pull=False, rm=True)
    built = None
    try:
        built = ImageBuilder(config).image_for(release)
        assert built.tag != offline.tag and built.tag.startswith(f"kcompat/kafka:{release.version}-")
        assert built.build_seconds > 0 or not stand_in
        assert client.images.get(base).id in {layer["Id"] for layer in client.api.history(built.tag)}
        provider = ContainerProvider(config)
        with provider.start(ClusterSpec.of(VERSION, "kraft")) as cluster:
            assert cluster.image.tag == built.tag
            conn = WireConnection(cluster.brokers[0].host, cluster.brokers[0].port)
            assert conn.api_versions()
            conn.close()
        assert _containers_of_run(provider.run_id) == []
    finally:
        if stand_in:
            if built is not None:
                client.images.remove(built.tag)
            client.images.remove(base)


def test_no_engine_is_a_one_line_error(kc_config: HarnessConfig) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from kcompat.harness.cli import run; run()", "--cache-dir", str(kc_config.cache_dir),
         "--provider", "container", "brokers", "probe", VERSION],
        capture_output=True, text=True, timeout=120, env={**os.environ, "DOCKER_HOST": "unix:///nonexistent.sock"},
    )
    assert done.returncode == 1
    error = [line for line in done.stderr.splitlines() if "error" in line]
    assert len(error) == 1
    assert "no Docker engine answers at unix:///nonexistent.sock" in error[0]
    assert "scripts/docker.sh" in error[0]


def test_brokers_reap_removes_containers_of_dead_owners_through_the_provider(kc_config: HarnessConfig) -> None:
    """``kcompat brokers reap`` asks every provider; the container provider removes what dead owners left."""
    from click.testing import CliRunner

    from kcompat.harness.cli import main

    built = ImageBuilder(kc_config).image_for(ClusterSpec.of(VERSION).release)
    dead, alive = "999999999-1", owner_token()
    made = {token: engine.client().containers.create(
        built.tag, ["true"], entrypoint=[], network_mode="none", name=f"kcompat-reap-{uuid.uuid4().hex[:8]}",
        labels={engine.LABEL_OWNER: token, engine.LABEL_ROLE: "reap-test"}) for token in (dead, alive)}
    try:
        result = CliRunner().invoke(main, ["--cache-dir", str(kc_config.cache_dir), "brokers", "reap"])
        assert result.exit_code == 0, result.output
        assert f"removed container {made[dead].name}" in result.output.splitlines()
        left = {c.name for c in engine.containers(**{engine.LABEL_ROLE: "reap-test"})}
        assert made[alive].name in left and made[dead].name not in left
    finally:
        for container in made.values():
            engine.remove(container)


def test_a_harness_killed_outright_leaves_no_container(kc_config: HarnessConfig) -> None:
    """SIGKILL runs no teardown: the watchdog sees its pipe close and removes the containers."""
    command = [sys.executable, "-c", "from kcompat.harness.cli import run; run()", "--cache-dir", str(kc_config.cache_dir),
               "--run-root", str(kc_config.run_root), "--provider", "container",
               "brokers", "up", VERSION, "--mode", "zk", "--nodes", "2"]
    harness = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    token = owner_token(harness.pid)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and harness.poll() is None:
        if engine.containers(**{engine.LABEL_OWNER: token}):
            break
        time.sleep(0.1)
    assert engine.containers(**{engine.LABEL_OWNER: token}), harness.communicate(timeout=10)[1][-500:]
    os.kill(harness.pid, signal.SIGKILL)
    harness.wait(timeout=30)
    deadline = time.monotonic() + 60
    while engine.containers(**{engine.LABEL_OWNER: token}) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [c.name for c in engine.containers(**{engine.LABEL_OWNER: token})] == []


REUSE_SCRIPT = textwrap.dedent("""
    import json, sys, time
    from kcompat.harness import ClusterSpec, HarnessConfig, SaslSpec
    from kcompat.harness.providers.container import ContainerProvider
    from kcompat.harness.protocol import WireConnection
    cache, runs, rack, sasl, hold = sys.argv[1:6]
    config = HarnessConfig.resolve(cache_dir=cache, run_root=runs, reuse=True)
    users = SaslSpec(users=(("alice", "alice-pw"),)) if sasl == "sasl" else None
    spec = ClusterSpec.of("3.9", "kraft", server_properties={"broker.rack": rack}, sasl=users)
    with ContainerProvider(config).start(spec) as cluster:
        if cluster.spec.sasl:  # the super password the cluster was booted with, whichever run did it
            broker = cluster.brokers[0]
            with WireConnection(broker.host, broker.port) as conn:
                offered = {r.api_key: r for r in conn.api_versions()}
                conn.authenticate_plain("admin", cluster.spec.sasl.super_password, offered)
        ids = sorted(j._container.id for j in cluster._brokers)
        print(json.dumps({"ids": ids, "reattached": cluster.reattached}), flush=True)
        time.sleep(float(hold))
""")


def _reuse(kc_config: HarnessConfig, rack: str, *, sasl: bool = False, hold: float = 0) -> list[str]:
    return [sys.executable, "-c", REUSE_SCRIPT, str(kc_config.cache_dir), str(kc_config.run_root), rack,
            "sasl" if sasl else "plain", str(hold)]


def _result(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr[-800:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _key(kc_config: HarnessConfig, rack: str, *, sasl: bool = False) -> str:
    from kcompat.harness import SaslSpec

    spec = ClusterSpec.of(VERSION, "kraft", server_properties={"broker.rack": rack},
                          sasl=SaslSpec(users=(("alice", "alice-pw"),)) if sasl else None)
    return reuse_key(spec, ImageBuilder(kc_config).image_for(spec.release))


def test_reuse_attaches_across_runs_and_concurrent_workers(kc_config: HarnessConfig) -> None:
    rack = f"reuse-{uuid.uuid4().hex[:8]}"
    key = _key(kc_config, rack)
    try:
        # Two "workers" at once: one boots, the other waits on the lock and attaches.
        workers = [subprocess.Popen(_reuse(kc_config, rack), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True) for _ in range(2)]
        results = []
        for worker in workers:
            out, err = worker.communicate(timeout=300)
            results.append(_result(subprocess.CompletedProcess(worker.args, worker.returncode, out, err)))
        assert sorted(bool(r["reattached"]) for r in results) == [False, True]
        assert results[0]["ids"] == results[1]["ids"]
        # A later run attaches too; the cluster kept running in between.
        third = _result(subprocess.run(_reuse(kc_config, rack), capture_output=True, text=True, timeout=300))
        assert third["reattached"] and third["ids"] == results[0]["ids"]
        assert [c.status for c in engine.containers(**{engine.LABEL_REUSE: key})] == ["running"]
        # A test that changed the cluster discards it: removed, since nobody else uses it.
        spec = ClusterSpec.of(VERSION, "kraft", server_properties={"broker.rack": rack})
        cluster = ContainerProvider(dataclasses.replace(kc_config, reuse=True)).start(spec)
        assert cluster.reattached
        cluster.discard()
        assert engine.containers(**{engine.LABEL_REUSE: key}) == []
        assert not (kc_config.cache_dir / "reuse" / key).exists()
    finally:
        remove_reused(kc_config.cache_dir, key, grace=kc_config.stop_grace)


def test_a_reused_sasl_cluster_keeps_its_super_password_and_is_never_removed_in_use(
        kc_config: HarnessConfig) -> None:
    rack = f"reuse-sasl-{uuid.uuid4().hex[:8]}"
    key = _key(kc_config, rack, sasl=True)
    try:
        first = _result(subprocess.run(_reuse(kc_config, rack, sasl=True), capture_output=True, text=True,
                                       timeout=300))
        # A later run generates another super password, attaches, and authenticates with the stored one.
        holder = subprocess.Popen(_reuse(kc_config, rack, sasl=True, hold=60), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        assert holder.stdout is not None
        second = json.loads(holder.stdout.readline())
        assert second["reattached"] and second["ids"] == first["ids"]
        assert remove_reused(kc_config.cache_dir, key, grace=kc_config.stop_grace) == []  # the holder's lease protects it
        assert [c.status for c in engine.containers(**{engine.LABEL_REUSE: key})] == ["running"]
        holder.kill()
        holder.wait(timeout=30)
    finally:
        removed = remove_reused(kc_config.cache_dir, key, grace=kc_config.stop_grace)
    assert removed and engine.containers(**{engine.LABEL_REUSE: key}) == []
