"""Broker images: built locally from the process provider's artifacts, or named by the user.

Two build paths, one layout (``broker.Dockerfile`` beside this module; docker/README.md):

* ``offline`` (default): the base is imported from the JDK the process
  provider would pick (``rootfs``), tagged ``kcompat/jre:<major>-<hash>``.
* ``registry``: the base is ``eclipse-temurin:<major>-jre``, local already or pulled
  explicitly when ``pull`` allows (the build itself never pulls).

On top go the Maven-resolved jars of the version.  Tags are
``kcompat/kafka:<version>-<hash>`` where the hash covers the Dockerfile, the
base image id and every jar's SHA-256, so an unchanged version is never rebuilt
(a warm call is a few engine lookups).  Builds of one version are serialised by a
file lock, so xdist workers asking at once build it once.

A user may instead name an existing image per version (``images`` setting,
e.g. ``3.7.0=apache/kafka:3.7.0``); it must have Kafka's jars in
``/opt/kafka/libs`` and ``java`` on its PATH, as apache/kafka does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ..artifacts import ArtifactStore
from ..catalog import BrokerRelease
from ..config import HarnessConfig, image_overrides
from ..errors import EngineError, ImageError, UnknownVersionError
from ..java import JavaRuntime, available_runtimes, parse_java_version, select_java
from ..locking import exclusive
from . import engine
from .rootfs import JAVA_HOME, fingerprint, write_rootfs

DOCKERFILE = Path(__file__).resolve().with_name("broker.Dockerfile")
"""Package data, so an installed (non-editable) kcompat builds images too; docker/README.md documents it."""
LIBS = PurePosixPath("/opt/kafka/libs")
LAYOUT = "1"
"""Bumped when the image layout changes, so every tag changes with it."""
BUILD_LOCK_TIMEOUT = 900.0


@dataclass(frozen=True)
class BrokerImage:
    """An image a broker container runs: its tag, its Java, its classpath inside."""

    tag: str
    release: BrokerRelease
    java: JavaRuntime
    classpath: str
    built: bool
    """False for an image the user named (used as it is)."""
    build_seconds: float = 0.0
    """Time this call spent building (0.0 when the image was already there)."""


@dataclass(frozen=True)
class ImagePlan:
    """What ``image_for`` would use or build for a release, worked out without building (or an engine)."""

    release: BrokerRelease
    tag: str | None
    """The full tag; None when no engine has the base yet (the tag's hash covers the base's image id)."""
    base: str | None
    """The base image; None for an image the user named."""
    dockerfile: Path | None
    jars: int
    java: str | None
    """The Java the image runs (the local JDK an offline base is made from)."""

    @property
    def label(self) -> str:
        return self.tag or f"kcompat/kafka:{self.release.version}-?"

    def as_json(self) -> dict[str, Any]:
        return {"version": str(self.release.version), "image": self.tag, "base": self.base,
                "dockerfile": None if self.dockerfile is None else str(self.dockerfile), "jars": self.jars,
                "java": self.java, "built": self.dockerfile is not None}


@dataclass(frozen=True)
class _Plan:
    image: BrokerImage
    digest: str
    jars: list[Path]
    names: list[str]
    dockerfile: str

    @property
    def tag(self) -> str:
        return self.image.tag


def flat_names(jars: list[Path]) -> list[str]:
    """File names for ``libs/``: the jar's own name, prefixed by its group path when two collide."""
    names = [jar.name for jar in jars]
    taken: set[str] = set()
    result = []
    for jar, name in zip(jars, names, strict=True):
        if names.count(name) > 1 or name in taken:
            name = "-".join(jar.parts[-5:-3]) + "-" + name  # the group's last two parts: .../org/a/<artifact>/<version>/<file>
        taken.add(name)
        result.append(name)
    return result


def content_hash(dockerfile: str, base_id: str, jars: list[tuple[str, str]]) -> str:
    """What an image is made of: layout, Dockerfile, base, (name, SHA-256) of each jar in order."""
    digest = hashlib.sha256(f"layout {LAYOUT}\n{dockerfile}\nbase {base_id}\n".encode())
    for name, sha in jars:
        digest.update(f"{name} {sha}\n".encode())
    return digest.hexdigest()


def _sweep_stale(directory: Path) -> None:
    """Remove root filesystem tars and build contexts left by builders that were killed mid-way."""
    import psutil

    for leftover in [*directory.glob("rootfs-*-*.tar"), *directory.glob("contexts/*-*")]:
        pid = leftover.name.rsplit("-", 1)[-1].removesuffix(".tar")
        if pid.isdigit() and not psutil.pid_exists(int(pid)):
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)


def offline_base(java: JavaRuntime) -> str:
    """The tag of the base imported from ``java``: its major and a fingerprint of its files."""
    return f"kcompat/jre:{java.major}-{fingerprint(java)[:12]}"


def registry_base(major: int) -> str:
    return f"eclipse-temurin:{major}-jre"


class ImageBuilder:
    """Finds or builds the image of a broker release."""

    def __init__(self, config: HarnessConfig, *, progress: Any = None):
        self.config = config
        self.store = ArtifactStore(config)
        self.overrides = image_overrides(config.images)
        self._progress = progress or (lambda line: None)
        self.directory = config.cache_dir / "docker"

    # -- the public entry ------------------------------------------------------
    def image_for(self, release: BrokerRelease) -> BrokerImage:
        named = self._named(release)
        if named is not None:
            return self._existing(named, release)
        return self.build(release)

    def plan(self, release: BrokerRelease) -> ImagePlan:
        """What ``image_for`` would use: the jars and Java resolved (as a build does), nothing built.

        Needs no engine: the tag is filled in only when one answers and has the base already.
        """
        named = self._named(release)
        if named is not None:
            return ImagePlan(release, named, None, None, 0, None)
        self.store.resolve(release)
        java = select_java(release.line.java, self.config.cache_dir, offline=self.config.offline,
                           what=f"Kafka {release.version}")
        base = registry_base(java.major) if self.config.image_base == "registry" else offline_base(java)
        jars = len(json.loads(self.store.manifest_path(release).read_text())["jars"])
        tag = None
        with contextlib.suppress(EngineError):  # no engine: the plan stands without the full tag
            if engine.image_present(base):
                tag = self._plan(release, java, str(engine.client().images.get(base).id)).tag
        return ImagePlan(release, tag, base, DOCKERFILE, jars, java.version)

    def _named(self, release: BrokerRelease) -> str | None:
        return self.overrides.get(str(release.version)) or self.overrides.get(str(release.line.line))

    def build(self, release: BrokerRelease) -> BrokerImage:
        """The ``kcompat/kafka`` image of ``release``, built if its content changed."""
        self.store.resolve(release)
        java = select_java(release.line.java, self.config.cache_dir, offline=self.config.offline,
                           what=f"Kafka {release.version}")
        self.directory.mkdir(parents=True, exist_ok=True)
        with exclusive(self.directory / f"kafka-{release.version}", timeout=BUILD_LOCK_TIMEOUT,
                       waiting_for=f"to build the image of Kafka {release.version}"):
            started = time.monotonic()
            base, base_id = self._base(java)
            plan = self._plan(release, java, base_id)
            if engine.image_present(plan.tag):
                return plan.image
            self._progress(f"building {plan.tag} on {base}")
            context = self._context(release, plan)
            try:
                self._docker_build(context, plan.tag, base, {
                    engine.LABEL_VERSION: str(release.version), engine.LABEL_CONTENT: plan.digest,
                    "io.kcompat.java": java.version,
                })
            finally:
                shutil.rmtree(context, ignore_errors=True)
            return dataclasses.replace(plan.image, build_seconds=time.monotonic() - started)

    def _plan(self, release: BrokerRelease, java: JavaRuntime, base_id: str) -> _Plan:
        """What the image of ``release`` on base ``base_id`` is made of, and so its tag."""
        manifest = json.loads(self.store.manifest_path(release).read_text())
        jars = list(self.store.resolve(release).classpath)  # manifest paths are relative to the cache
        names = flat_names(jars)
        dockerfile = DOCKERFILE.read_text()
        digest = content_hash(dockerfile, base_id, [(n, e["sha256"]) for n, e in zip(names, manifest["jars"],
                                                                                      strict=True)])
        tag = f"kcompat/kafka:{release.version}-{digest[:12]}"
        classpath = ":".join(str(LIBS / name) for name in names)
        inside = JavaRuntime(Path(JAVA_HOME) / "bin" / "java", java.major, java.version)
        return _Plan(BrokerImage(tag, release, inside, classpath, built=True), digest, jars, names, dockerfile)

    def current_tag(self, release: BrokerRelease) -> str | None:
        """The tag a build of ``release`` would have now, or None when that can't be known
        without fetching, installing or importing anything (then nothing is stale for sure)."""
        if not self.store.is_cached(release):
            return None
        java = next((r for major in release.line.java for r in available_runtimes(self.config.cache_dir)
                     if r.major == major), None)
        if java is None:
            return None
        if self.config.image_base == "registry":
            base = registry_base(java.major)
        else:
            base = offline_base(java)
        if not engine.image_present(base):
            return None
        return self._plan(release, java, str(engine.client().images.get(base).id)).tag

    def prune(self) -> list[str]:
        """Remove kcompat images a newer build replaced, then bases no image is built on.

        A broker image goes when the tag its version would get now differs
        (new jars, new base); one whose current tag can't be known stays.  A
        base goes when no image uses it (the engine refuses otherwise) and it
        is not the base of a Java on this machine.  Images in use stay.
        """
        import docker.errors

        from ..catalog import load_catalog

        client = engine.client()
        removed: list[str] = []
        catalog = load_catalog()
        for image in client.images.list(filters={"label": engine.LABEL_CONTENT}):
            try:
                current = self.current_tag(catalog.release(image.labels.get(engine.LABEL_VERSION, "")))
            except UnknownVersionError:  # not a version the catalog knows (any more): left alone
                current = None
            for tag in image.tags:
                if current is not None and tag != current:
                    with contextlib.suppress(docker.errors.APIError):  # a container still runs it
                        client.images.remove(tag)
                        removed.append(tag)
        wanted = {offline_base(runtime) for runtime in available_runtimes(self.config.cache_dir)}
        for base in client.images.list(name="kcompat/jre"):
            for tag in set(base.tags) - wanted:
                with contextlib.suppress(docker.errors.APIError):  # images are still built on it
                    client.images.remove(tag)
                    removed.append(tag)
        return removed

    # -- bases -------------------------------------------------------------------
    def _base(self, java: JavaRuntime) -> tuple[str, str]:
        """(name, id) of the base image for ``java``, imported from it when offline."""
        if self.config.image_base == "registry":
            name = registry_base(java.major)
            self._ensure_local(name, f"the registry base of Java {java.major}")
            return name, str(engine.client().images.get(name).id)
        tag = offline_base(java)
        with exclusive(self.directory / f"jre-{java.major}", timeout=BUILD_LOCK_TIMEOUT,
                       waiting_for=f"to import the Java {java.major} base image"):
            if not engine.image_present(tag):
                self._import_base(java, tag)
            return tag, str(engine.client().images.get(tag).id)

    def _import_base(self, java: JavaRuntime, tag: str) -> None:
        import docker.errors

        self._progress(f"importing {tag} from {java.home}")
        _sweep_stale(self.directory)
        tar = self.directory / f"rootfs-{java.major}-{os.getpid()}.tar"
        try:
            write_rootfs(java, tar)
            repository, _, version = tag.partition(":")
            engine.client().api.import_image_from_file(
                str(tar), repository=repository, tag=version,
                changes=[f"ENV JAVA_HOME={JAVA_HOME}", f"ENV PATH={JAVA_HOME}/bin:/usr/bin:/bin",
                         f"LABEL io.kcompat.java={java.version}"],
            )
        except docker.errors.APIError as exc:
            raise ImageError(f"could not import the Java {java.major} base image {tag}: {exc.explanation}") from exc
        except (docker.errors.DockerException, OSError) as exc:
            raise ImageError(f"could not import the Java {java.major} base image {tag}: {exc}") from exc
        finally:
            tar.unlink(missing_ok=True)
        if not engine.image_present(tag):
            raise ImageError(f"docker import of {tag} reported no error but the image is absent")

    # -- the broker layer ----------------------------------------------------------
    def _context(self, release: BrokerRelease, plan: _Plan) -> Path:
        _sweep_stale(self.directory)
        context = self.directory / "contexts" / f"kafka-{release.version}-{os.getpid()}"
        shutil.rmtree(context, ignore_errors=True)
        (context / "libs").mkdir(parents=True)
        for jar, name in zip(plan.jars, plan.names, strict=True):
            target = context / "libs" / name
            try:
                os.link(jar, target)  # same file system as the cache: no copy
            except OSError:
                shutil.copy2(jar, target)
        (context / "classpath").write_text(plan.image.classpath + "\n")
        (context / "Dockerfile").write_text(plan.dockerfile)
        return context

    def _docker_build(self, context: Path, tag: str, base: str, labels: dict[str, str]) -> None:
        import docker.errors

        log = self.directory / f"build-{tag.replace('/', '_').replace(':', '_')}.log"
        try:
            _, lines = engine.client().images.build(  # the base is local by now: nothing to pull
                path=str(context), tag=tag, buildargs={"BASE": base}, labels=labels, rm=True, forcerm=True,
                pull=False,
            )
            log.write_text("".join(str(line.get("stream", "")) for line in lines))
        except docker.errors.BuildError as exc:
            log.write_text("".join(str(line.get("stream", line.get("error", ""))) for line in exc.build_log))
            hint = ("the registry base must be pullable; use image_base=offline on machines without one"
                    if self.config.image_base == "registry" else None)
            raise ImageError(f"docker build of {tag} failed: {exc.msg}", log=log, hint=hint) from exc
        except docker.errors.APIError as exc:
            raise ImageError(f"docker build of {tag} failed: {exc.explanation}", log=log) from exc

    # -- images the user named ------------------------------------------------------
    def _ensure_local(self, name: str, what: str) -> None:
        """Pull ``name`` only when the user allowed it; otherwise its absence is the error."""
        import docker.errors

        if engine.image_present(name):
            return
        if not self.config.pull:
            raise ImageError(f"image {name} ({what}) is not on this engine",
                             hint=f"docker pull {name}, or allow pulling with KCOMPAT_PULL=1 / --pull")
        self._progress(f"pulling {name}")
        try:
            engine.client().images.pull(name)
        except docker.errors.APIError as exc:
            raise ImageError(f"could not pull {name}: {exc.explanation}") from exc

    def _existing(self, name: str, release: BrokerRelease) -> BrokerImage:
        self._ensure_local(name, f"given for Kafka {release.version}")
        return BrokerImage(name, release, self._image_java(name), f"{LIBS}/*", built=False)

    def _image_java(self, name: str) -> JavaRuntime:
        """Ask the image's ``java -version`` (once per image id, remembered in the cache)."""
        image_id = str(engine.client().images.get(name).id)
        cache = self.directory / "java-of-images.json"
        with exclusive(cache, timeout=BUILD_LOCK_TIMEOUT, waiting_for="to read the Java versions of images"):
            known: dict[str, list[Any]] = json.loads(cache.read_text()) if cache.is_file() else {}
            if image_id not in known:
                known[image_id] = list(parse_java_version(self._run_java_version(name)))
                self.directory.mkdir(parents=True, exist_ok=True)
                staged = cache.with_suffix(f".{os.getpid()}.tmp")
                staged.write_text(json.dumps(known))
                staged.replace(cache)
        version, major = known[image_id]
        return JavaRuntime(Path("java"), int(major), str(version))

    def _run_java_version(self, name: str) -> str:
        """``java -version`` in a labelled, network-less container, removed whatever happens."""
        from ..reaper import owner_token

        hint = "an image needs java on its PATH and Kafka's jars in /opt/kafka/libs"
        container = None
        try:
            container = engine.client().containers.create(
                name, ["java", "-version"], entrypoint=[], network_mode="none",
                labels={engine.LABEL_OWNER: owner_token(), engine.LABEL_ROLE: "java-version"})
            container.start()
            code = container.wait(timeout=60).get("StatusCode")
            output = str(container.logs(stdout=True, stderr=True).decode(errors="replace"))
        except Exception as exc:
            raise ImageError(f"`java -version` does not run in image {name}: {engine.reason(exc, 200)}",
                             hint=hint) from exc
        finally:
            if container is not None:
                engine.remove(container)
        if code != 0:
            raise ImageError(f"`java -version` exited with {code} in image {name}: {output.strip()[:200]}", hint=hint)
        return output
