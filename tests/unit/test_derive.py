"""A catalog entry derived from a release's jars: small crafted jars stand in for Maven Central's."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from kcompat.harness import catalog as catalog_module
from kcompat.harness import load_catalog
from kcompat.harness.catalog import BrokerLine, line_toml, read_lines, use_lines
from kcompat.harness.config import HarnessConfig
from kcompat.harness.derive import JAR_URL, derive_line, derived_for, modes_of
from kcompat.harness.errors import ArtifactError, UnknownVersionError
from kcompat.harness.versions import KafkaVersion

MAJOR = {8: 52, 11: 55, 17: 61, 21: 65, 25: 69}


def _class(java: int) -> bytes:
    return b"\xca\xfe\xba\xbe\x00\x00" + MAJOR[java].to_bytes(2, "big") + b"\x00" * 8


def _jar(path: Path, *, java: int | None = None, version: str | None = None,
         extra: dict[str, bytes] | None = None) -> Path:
    """A jar with one class compiled for ``java`` (a Java 8 one beside it) and, for kafka-clients, its version."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as jar:
        jar.writestr("org/apache/kafka/Old.class", _class(8))
        if java is not None:
            jar.writestr("org/apache/kafka/New.class", _class(java))
            jar.writestr("META-INF/versions/25/org/apache/kafka/New.class", _class(25))  # multi-release: not needed
        if version is not None:
            jar.writestr("kafka/kafka-version.properties", f"commitId=abc\nversion={version}\n")
        for name, data in (extra or {}).items():
            jar.writestr(name, data)
    return path


def _release(directory: Path, version: str, *, clients: int = 8, broker: int = 8, scala: str = "2.13") -> Path:
    _jar(directory / f"kafka-clients-{version}.jar", java=clients, version=version)
    _jar(directory / f"kafka_{scala}-{version}.jar", java=broker)
    return directory


@pytest.fixture
def derived_lines(monkeypatch: pytest.MonkeyPatch):
    """A process catalog to add derived lines to, put back as it was afterwards."""
    monkeypatch.setattr(catalog_module, "_derived", {})
    load_catalog.cache_clear()
    yield
    load_catalog.cache_clear()


def test_a_new_line_takes_its_modes_java_and_jar_from_its_jars(tmp_path: Path) -> None:
    line = derive_line([_release(tmp_path, "4.5.0", clients=11, broker=17)], load_catalog())
    assert (str(line.line), str(line.newest), line.scala, line.modes, line.java) == \
        ("4.5", "4.5.0", "2.13", ("kraft",), (17, 21))
    assert line.add == line.exclude == ()


@pytest.mark.parametrize(("java", "expected"), [(8, (17, 11)), (11, (17, 11)), (17, (17, 21)), (21, (21,))])
def test_the_java_is_the_catalogs_convention_for_what_the_classes_need(tmp_path: Path, java: int,
                                                                        expected: tuple[int, ...]) -> None:
    jars = _release(tmp_path, "9.1.0", clients=8, broker=java)
    assert derive_line([jars], load_catalog()).java == expected


def test_a_jar_list_derives_as_its_directory_does(tmp_path: Path) -> None:
    directory = _release(tmp_path / "build", "4.5.1", clients=11, broker=17, scala="2.12")
    _jar(tmp_path / "build" / "unrelated.jar")
    listed = derive_line(sorted(directory.glob("kafka*.jar")), load_catalog())
    assert listed == derive_line([directory], load_catalog()) and listed.scala == "2.12"


def test_a_new_patch_of_a_known_line_keeps_the_lines_java_and_classpath(tmp_path: Path) -> None:
    line = derive_line([_release(tmp_path / "a", "0.11.0.4")], load_catalog())
    known = next(entry for entry in load_catalog() if entry.line.line == "0.11.0")
    assert (line.java, line.add, line.modes) == (known.java, known.add, ("zk",))
    newer = derive_line([_release(tmp_path / "b", "3.9.3", broker=21)], load_catalog())
    assert newer.java == (21,)  # its classes need more than the line ran on


@pytest.mark.parametrize(("version", "modes"), [("3.2.3", ("zk",)), ("3.3.0", ("zk", "kraft")),
                                                ("3.9.9", ("zk", "kraft")), ("4.0.0", ("kraft",))])
def test_modes_follow_the_version(version: str, modes: tuple[str, ...]) -> None:
    assert modes_of(KafkaVersion.parse(version)) == modes


def test_an_unreadable_jar_is_one_line_naming_it(tmp_path: Path) -> None:
    _release(tmp_path, "4.5.0")
    (tmp_path / "kafka_2.13-4.5.0.jar").write_text("not a zip")
    with pytest.raises(ArtifactError, match=r"kafka_2\.13-4\.5\.0\.jar: can't be read as a jar") as caught:
        derive_line([tmp_path], load_catalog())
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("properties", "why"), [(None, "kafka-version.properties is missing"),
                                                 (b"commitId=abc\n", "no version="),
                                                 (b"version=4.5.0-SNAPSHOT\n", "is not a release")])
def test_a_clients_jar_without_a_release_version_is_one_line(tmp_path: Path, properties: bytes | None,
                                                             why: str) -> None:
    extra = {} if properties is None else {"kafka/kafka-version.properties": properties}
    _jar(tmp_path / "kafka-clients-4.5.0.jar", java=11, extra=extra)
    _jar(tmp_path / "kafka_2.13-4.5.0.jar", java=17)
    with pytest.raises(ArtifactError, match=why):
        derive_line([tmp_path], load_catalog())


def test_missing_jars_and_classes_are_named(tmp_path: Path) -> None:
    _jar(tmp_path / "a" / "kafka-clients-4.5.0.jar", version="4.5.0")
    with pytest.raises(ArtifactError, match=r"no broker \(kafka_<scala>\) jar among"):
        derive_line([tmp_path / "a"], load_catalog())
    with zipfile.ZipFile(tmp_path / "a" / "kafka_2.13-4.5.0.jar", "w") as jar:
        jar.writestr("kafka/README", "no classes")
    with pytest.raises(ArtifactError, match="holds no class file"):
        derive_line([tmp_path / "a"], load_catalog())
    _release(tmp_path / "b", "4.5.0", broker=25)
    with pytest.raises(ArtifactError, match="its classes need Java 25; kcompat runs brokers on 11, 17, 21"):
        derive_line([tmp_path / "b"], load_catalog())


@pytest.mark.parametrize("line", load_catalog().lines, ids=lambda e: e.line.line)
def test_an_entry_as_toml_reads_back_as_itself(tmp_path: Path, line: BrokerLine) -> None:
    (tmp_path / "lines.toml").write_text(line_toml(line))
    assert read_lines(tmp_path / "lines.toml") == [line]


def _metadata(*versions: str) -> str:
    inner = "".join(f"<version>{v}</version>" for v in versions)
    return f"<metadata><versioning><versions>{inner}</versions></versioning></metadata>"


class FakeCentral:
    """Maven Central with 4.5.0 published for Scala 2.13 only; it counts what it was asked."""

    def __init__(self, jars: Path):
        self.jars = jars
        self.asked: list[str] = []

    def fetch(self, scala: str) -> str:
        self.asked.append(scala)
        return _metadata("4.4.0", "4.5.0") if scala == "2.13" else _metadata("2.3.1")

    def download(self, url: str, path: Path) -> None:
        self.asked.append(url)
        path.write_bytes((self.jars / url.rsplit("/", 1)[1]).read_bytes())


def _config(tmp_path: Path, *, offline: bool = False) -> HarnessConfig:
    return HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs", offline=offline)


def test_a_published_release_the_catalog_lacks_is_derived_from_its_jars_and_planned(
        tmp_path: Path, derived_lines: None) -> None:
    from kcompat.harness.matrix.claims import claims_dir, load_claim_book
    from kcompat.harness.matrix.plan import Selection, plan

    central = FakeCentral(_release(tmp_path / "central", "4.5.0", clients=11, broker=17))
    (line,) = derived_for(["4.5.0", "3.9"], load_catalog(), _config(tmp_path), central.fetch, central.download)
    assert (str(line.newest), line.modes, line.java) == ("4.5.0", ("kraft",), (17, 21))
    assert JAR_URL.format(artifact="kafka_2.13", version="4.5.0") in central.asked
    assert (tmp_path / "cache" / "central" / "releases" / "4.5.0" / "kafka_2.13-4.5.0.jar").is_file()
    with pytest.raises(UnknownVersionError):
        load_catalog().release("4.5.0")
    use_lines([line])
    assert load_catalog().release("4.5.0").maven_coordinate == "org.apache.kafka:kafka_2.13:4.5.0"
    cells = plan(Selection.of("4.5.0", None, "wire"), load_claim_book(claims_dir(None)), load_catalog())
    assert cells and {(str(c.version), c.mode) for c in cells} == {("4.5.0", "kraft")}


def test_a_release_nobody_publishes_or_a_line_or_offline_is_left_to_the_catalogs_error(tmp_path: Path) -> None:
    central = FakeCentral(_release(tmp_path / "central", "4.5.0"))
    for names, config in ((["4.5.9", "4.5", "banana", "2.4.1"], _config(tmp_path)),
                          (["4.5.0"], _config(tmp_path, offline=True))):
        assert derived_for(names, load_catalog(), config, central.fetch, central.download) == []
    assert not any(asked.startswith("https://") for asked in central.asked)

    def unreachable(scala: str) -> str:
        raise ArtifactError("can't read it")

    assert derived_for(["4.5.0"], load_catalog(), _config(tmp_path), unreachable, central.download) == []


def test_new_releases_are_the_newest_of_each_line_the_catalog_lacks() -> None:
    from kcompat.harness.central import new_releases

    catalog = load_catalog()
    everything = [str(line.newest) for line in catalog]

    def fetch(scala: str) -> str:
        extra = ["3.9.3", "3.9.4", "4.5.0", "4.5.1", "4.6.0", "0.10.1.1"] if scala == "2.13" else []
        return _metadata(*everything, *extra)

    assert [str(v) for v in new_releases(catalog, fetch)] == ["3.9.4", "4.5.1", "4.6.0"]
    assert new_releases(catalog, lambda scala: _metadata(*everything)) == []


def test_a_run_hands_its_derived_entries_to_its_test_processes(tmp_path: Path, derived_lines: None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``prepare`` writes the entries it derived into the run directory; a test process given that directory
    plans the release's cells (without it, the release is the catalog's usage error)."""
    import subprocess
    import sys

    from kcompat.harness.catalog import DERIVED_FILE
    from kcompat.harness.matrix import runner
    from kcompat.harness.matrix.claims import scenarios_dir
    from kcompat.harness.matrix.plan import Selection

    line = derive_line([_release(tmp_path / "central", "4.5.0", clients=11, broker=17)], load_catalog())
    monkeypatch.setattr(runner, "derived_for", lambda texts, catalog, config: [line] if "4.5.0" in texts else [])
    options = runner.RunOptions(tmp_path / "run", Selection.of("4.5.0", None, "wire", "KIP-525"))
    runner.prepare(options, _config(tmp_path))
    assert read_lines(tmp_path / "run" / DERIVED_FILE) == [line]

    def collect(run_dir: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pytest", str(scenarios_dir()), "-o", "addopts=", "-p", "no:cacheprovider",
             "-p", "no:xdist", "--import-mode=importlib", "-q", "--co", "--kc-run-dir", str(run_dir),
             "--kc-brokers", "4.5.0", "--kc-clients", "wire", "--kc-kips", "KIP-525"],
            capture_output=True, text=True, timeout=300, check=False, cwd=scenarios_dir().parent.parent)

    collected = collect(tmp_path / "run")
    ids = [row for row in collected.stdout.splitlines() if "::test_cell[" in row]
    assert ids and all("4.5.0" in row for row in ids), collected.stdout[-2000:] + collected.stderr[-2000:]
    refused = collect(tmp_path / "elsewhere")
    assert refused.returncode != 0 and "Kafka 4.5.0 is not in the catalog" in refused.stdout + refused.stderr


def _script():  # scripts/catalog_entries.py, which the nightly's pull request step runs
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "catalog_entries.py"
    spec = importlib.util.spec_from_file_location("catalog_entries", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_nightlys_script_adds_entries_to_the_catalog_and_new_lines_to_the_shards(tmp_path: Path) -> None:
    import dataclasses
    import tomllib

    from kcompat.harness.catalog import _line_from_toml

    script = _script()
    patch = dataclasses.replace(next(line for line in load_catalog() if line.line.line == "0.11.0"),
                                newest=KafkaVersion.parse("0.11.0.4"), java=(17,))
    line = derive_line([_release(tmp_path, "4.5.0", clients=11, broker=17)], load_catalog())
    before = script.CATALOG.read_text()
    after = script.with_entries(before, [patch, line])
    lines = [_line_from_toml(raw) for raw in tomllib.loads(after)["line"]]
    assert lines == [*(patch if old.line == patch.line else old for old in load_catalog().lines), line]
    assert "# Java 11 dropped javax.xml.bind" in after  # the line's comment stays with it
    assert after.replace('newest = "0.11.0.4"', 'newest = "0.11.0.3"', 1).replace(
        'java = [17]\n# Java 11 dropped', 'java = [11]\n# Java 11 dropped', 1) == before + "\n" + line_toml(line)
    workflow = script.WORKFLOW.read_text()
    shards = yaml_shards(script.with_shards(workflow, [patch, line]))
    assert shards == [*yaml_shards(workflow), "4.5"]
    assert script.with_shards(workflow, [patch]) == workflow


def yaml_shards(text: str) -> list[str]:
    import yaml

    return list(yaml.safe_load(text)["jobs"]["shard"]["strategy"]["matrix"]["broker"])


def test_jars_that_say_they_are_another_release_are_one_line(tmp_path: Path) -> None:
    central = FakeCentral(_release(tmp_path / "central", "4.4.0"))
    (tmp_path / "central" / "kafka-clients-4.4.0.jar").rename(tmp_path / "central" / "kafka-clients-4.5.0.jar")
    (tmp_path / "central" / "kafka_2.13-4.4.0.jar").rename(tmp_path / "central" / "kafka_2.13-4.5.0.jar")
    with pytest.raises(ArtifactError, match="Maven Central's kafka-clients 4.5.0 says it is 4.4.0"):
        derived_for(["4.5.0"], load_catalog(), _config(tmp_path), central.fetch, central.download)
    (tmp_path / "central" / "kafka_2.13-4.5.0.jar").write_text("cut short")
    with pytest.raises(ArtifactError, match="kafka_2.13-4.5.0.jar: can't be read as a jar"):
        derived_for(["4.5.0"], load_catalog(), _config(tmp_path), central.fetch, central.download)
    assert not (tmp_path / "cache" / "central" / "releases" / "4.5.0").exists()  # fetched again next time
