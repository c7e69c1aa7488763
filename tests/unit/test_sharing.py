"""Shared clusters: which cells of a broker release run on one cluster, from crafted claim
books.  The rule: cells of one shape (nodes, security profile) share a cluster that carries the log dirs and the
dynamic quorum any shareable claim of that shape in the book asks for, where the release runs them supported;
plug-ins and ``shared = false`` keep a claim's own cluster; the cells that asked for the extras run last."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.catalog import load_catalog
from kcompat.harness.matrix.claims import ClaimError, load_claim_book, load_claims_file
from kcompat.harness.matrix.plan import PlannedCell, Selection, plan

CLAIM = '''
[[claim]]
id = "{id}"
section = "S"
api = "CreateTopics"
versions = "0+"
probe = "create_topic"
cluster = {cluster}

  [[claim.expect]]
  quote = "It works."
  observe = {{ error = "NONE" }}

  [[claim.fallback]]
  quote = "It works."
  observe = {{ error = "NONE" }}
'''

BOOK = {
    "plain": "{}",
    "logdirs": "{ log_dirs = 2 }",
    "policy": '{ plugins = ["create_topic_policy"] }',
    "alone": "{ shared = false }",
    "three": "{ nodes = 3 }",
    "voters": '{ nodes = 3, quorum = "dynamic" }',
    "sasl": '{ users = ["alice"] }',
}


def _book(tmp_path: Path, claims: dict[str, str]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "KIP-1.md").write_text("It works.\n")
    text = 'kip = "KIP-1"\nsource = "KIP-1.md"\n' + "".join(
        CLAIM.format(id=name, cluster=cluster) for name, cluster in claims.items())
    (tmp_path / "KIP-1.toml").write_text(text)
    return tmp_path


def _cells(tmp_path: Path, brokers: str, claims: dict[str, str] = BOOK) -> dict[str, PlannedCell]:
    book = load_claim_book(_book(tmp_path, claims))
    return {f"{c.cell.claim_id.split('/')[1]}@{c.version}-{c.mode}": c
            for c in plan(Selection.of(brokers, "all", "wire", ()), book, load_catalog())}


def _key(cell: PlannedCell) -> str:
    return cell.cluster_key.split("-", 2)[2]  # without the release and mode


@pytest.mark.parametrize(("broker", "mode"), [("2.3", "zk"), ("3.8", "kraft"), ("4.4", "kraft")])
def test_plain_cells_run_on_the_log_dir_claims_cluster_where_the_release_supports_two_dirs(
        tmp_path: Path, broker: str, mode: str) -> None:
    cells = {k: c for k, c in _cells(tmp_path, broker).items() if k.endswith(mode)}
    plain, logdirs = (next(c for k, c in cells.items() if k.startswith(name + "@")) for name in ("plain", "logdirs"))
    assert plain.cluster_key == logdirs.cluster_key and _key(plain) == "1n-plaintext-2dirs"
    assert plain.cluster.log_dirs == 2 and plain.claim.cluster.log_dirs == 1  # the claim is as written


@pytest.mark.parametrize("broker", ["3.5", "3.7"])
def test_kraft_before_3_8_gives_no_plain_cell_a_second_log_dir(tmp_path: Path, broker: str) -> None:
    """KRaft ran several log dirs unsupported before 3.7 and as early access in 3.7 (KIP-858): only the claim
    that asks for them gets them."""
    cells = {k: c for k, c in _cells(tmp_path, broker).items() if k.endswith("kraft")}
    plain, logdirs = (next(c for k, c in cells.items() if k.startswith(name + "@")) for name in ("plain", "logdirs"))
    assert (_key(plain), _key(logdirs)) == ("1n-plaintext", "1n-plaintext-2dirs")


def test_plug_ins_and_claims_that_say_so_keep_their_own_cluster(tmp_path: Path) -> None:
    cells = _cells(tmp_path, "2.6")
    assert _key(cells["policy@2.6.3-zk"]) == "1n-plaintext-create_topic_policy"
    assert _key(cells["alone@2.6.3-zk"]) == "1n-plaintext"
    assert _key(cells["plain@2.6.3-zk"]) == "1n-plaintext-2dirs"
    assert _key(cells["sasl@2.6.3-zk"]) == "1n-sasl"  # sharing never crosses a security profile or node count
    assert _key(cells["three@2.6.3-zk"]) == "3n-plaintext"


@pytest.mark.parametrize(("broker", "mode", "key"), [("3.9", "kraft", "3n-plaintext-dynamic"),
                                                     ("3.8", "kraft", "3n-plaintext"),
                                                     ("2.8", "zk", "3n-plaintext")])
def test_three_node_cells_share_the_voter_claims_quorum_where_kraft_has_a_dynamic_one(
        tmp_path: Path, broker: str, mode: str, key: str) -> None:
    cells = [c for c in _cells(tmp_path, broker).values() if c.mode == mode and c.claim.cluster.nodes == 3]
    assert {_key(c) for c in cells} == {key}


def test_the_cells_that_asked_for_the_extras_run_last_on_their_cluster(tmp_path: Path) -> None:
    """The voter cells change the quorum and the log-dir cells move replicas: every other cell of the cluster
    has run before them, so none observes what they left."""
    book = load_claim_book(_book(tmp_path, BOOK))
    cells = plan(Selection.of("3.9", "kraft", "wire,java:4.4.0", ()), book, load_catalog())
    for key in {c.cluster_key for c in cells}:
        mine = [c.claim.id.split("/")[1] for c in cells if c.cluster_key == key]
        asked = [name for name in mine if name in ("logdirs", "voters")]
        assert mine[len(mine) - len(asked):] == asked, mine


def test_a_cell_runs_on_the_same_cluster_whatever_else_is_selected(tmp_path: Path) -> None:
    """The shared cluster comes from the whole book, so a run of one KIP (or a repro of one cell) boots what
    the full matrix booted for that cell."""
    (tmp_path / "book").mkdir()
    _book(tmp_path / "book", BOOK)
    (tmp_path / "book" / "KIP-2.md").write_text("It works.\n")
    (tmp_path / "book" / "KIP-2.toml").write_text('kip = "KIP-2"\nsource = "KIP-2.md"\n'
                                                   + CLAIM.format(id="other", cluster="{}"))
    book = load_claim_book(tmp_path / "book")
    alone = plan(Selection.of("2.3", "zk", "wire", "KIP-2"), book, load_catalog())
    assert [c.cluster_key for c in alone] == ["2.3.1-zk-1n-plaintext-2dirs"]


@pytest.mark.parametrize("value", ['"no"', "0", "[]"])
def test_shared_is_a_boolean(tmp_path: Path, value: str) -> None:
    with pytest.raises(ClaimError, match="cluster.shared is true or false"):
        load_claims_file(_book(tmp_path, {"one": f"{{ shared = {value} }}"}) / "KIP-1.toml")


def test_kcompat_run_plan_counts_the_shared_clusters_of_a_users_book(tmp_path: Path) -> None:
    """Through the console script, as an author checks a book: `kcompat run --plan --claims DIR`."""
    from tests.console import kcompat

    shared = _book(tmp_path / "shared", {"plain": "{}", "logdirs": "{ log_dirs = 2 }"})
    alone = _book(tmp_path / "alone", {"plain": "{ shared = false }", "logdirs": "{ log_dirs = 2 }"})
    bad = _book(tmp_path / "bad", {"plain": '{ shared = "sometimes" }'})
    counts = {}
    for book in (shared, alone):
        result = kcompat("run", "--plan", "--claims", str(book), "--brokers", "2.3", "--clients", "wire")
        assert result.returncode == 0, result.stderr
        counts[book.name] = result.stdout.splitlines()[-1]
    assert "on 1 broker(s), 1 cluster(s) to boot; nothing booted" in counts["shared"]
    assert "on 1 broker(s), 2 cluster(s) to boot; nothing booted" in counts["alone"]
    result = kcompat("run", "--plan", "--claims", str(bad), "--brokers", "2.3", "--clients", "wire")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"{bad / 'KIP-1.toml'}:" in result.stderr and "cluster.shared is true or false" in result.stderr
