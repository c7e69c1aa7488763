from pathlib import Path

import pytest

from kcompat.harness import ClusterSpec, ConfigError, SaslSpec


def test_default_mode_is_kraft_where_supported() -> None:
    assert ClusterSpec.of("3.9").mode == "kraft"
    assert ClusterSpec.of("2.8").mode == "zk"
    assert ClusterSpec.of("4.4").mode == "kraft"


@pytest.mark.parametrize(("version", "mode"), [("2.8", "kraft"), ("4.0", "zk"), ("3.2", "kraft")])
def test_unsupported_mode_names_the_supported_ones(version: str, mode: str) -> None:
    with pytest.raises(ConfigError, match=f"can't run in {mode} mode; it supports"):
        ClusterSpec.of(version, mode)


def test_nodes_and_classpath_are_validated(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="1 to 9 nodes"):
        ClusterSpec.of("3.9", nodes=0)
    with pytest.raises(ConfigError, match="does not exist"):
        ClusterSpec.of("3.9", extra_classpath=[tmp_path / "missing.jar"])


def test_equal_specs_are_equal_and_hashable() -> None:
    sasl = SaslSpec(users=(("alice", "pw"),), super_password="x")
    first = ClusterSpec.of("3.9", nodes=3, server_properties={"a": "1", "b": "2"}, sasl=sasl)
    second = ClusterSpec.of("3.9.2", nodes=3, server_properties={"b": "2", "a": "1"}, sasl=sasl)
    assert first == second and hash(first) == hash(second)
    assert first.label == "kafka-3.9.2-kraft-3n-sasl"


def test_bad_user_names_are_refused() -> None:
    with pytest.raises(ConfigError, match="JAAS"):
        SaslSpec(users=(('ev"il', "pw"),))


def test_credentials_a_jaas_file_cant_carry_are_refused() -> None:
    with pytest.raises(ConfigError, match="quote, backslash or newline"):
        SaslSpec(users=(("bob", 'pa"ss'),))
    with pytest.raises(ConfigError, match="is the super user"):
        SaslSpec(users=(("admin", "pw"),))


def test_sasl_specs_with_other_generated_passwords_are_equal() -> None:
    assert ClusterSpec.of("3.9", sasl=SaslSpec()) == ClusterSpec.of("3.9", sasl=SaslSpec())


def test_private_files_are_never_readable_by_others(tmp_path: Path) -> None:
    from kcompat.harness.render import write_private

    path = write_private(tmp_path / "secret", "pw")
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.read_text() == "pw"
