"""The pytest plugin, driven through pytester with a fake provider (pure plumbing, no broker)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = '''
from kcompat.harness.providers import PROVIDERS

EVENTS = []


class FakeCluster:
    def __init__(self, spec):
        self.spec = spec
        self.bootstrap_servers = "127.0.0.1:1"

    def check_alive(self):
        EVENTS.append(("check", str(self.spec.version)))

    def stop(self):
        EVENTS.append(("stop", str(self.spec.version)))

    def discard(self):
        EVENTS.append(("discard", str(self.spec.version)))


class FakeProvider:
    name = "fake"

    def __init__(self, config, *, progress=None, run_id=None):
        self.config = config
        self.run_id = run_id

    def start(self, spec):
        EVENTS.append(("start", str(spec.version)))
        return FakeCluster(spec)

    def reap_orphans(self, *, reused=False):
        EVENTS.append(("reap", reused))
        return []


PROVIDERS["fake"] = lambda: FakeProvider


def pytest_sessionfinish(session):
    print("EVENTS", EVENTS)
'''

TESTS = '''
from kcompat.harness import ClusterSpec


def test_first(kafka_cluster_factory, kc_config):
    assert kafka_cluster_factory(ClusterSpec.of("3.9")).spec.version.text == "3.9.2"
    assert kc_config.offline is True
    assert kc_config.cache_dir.name == "kc-cache"


def test_reuses_equal_spec(kafka_cluster_factory):
    kafka_cluster_factory(ClusterSpec.of("3.9.2"))
    kafka_cluster_factory(ClusterSpec.of("2.8"))
'''


def test_fixtures_share_clusters_and_stop_them_at_session_end(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_cells=TESTS)
    pytester.makeini("[pytest]\nkc_offline = true\n")
    result = pytester.runpytest_subprocess("--kc-provider", "fake", "--kc-cache-dir",
                                str(pytester.path / "kc-cache"), "-s")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["kcompat: provider=fake run=* cache=*kc-cache*offline; clients: *"])
    events = ast.literal_eval(next(line for line in result.outlines if "EVENTS" in line).split("EVENTS", 1)[1].strip())
    assert events[:4] == [("reap", False), ("start", "3.9.2"), ("check", "3.9.2"), ("start", "2.8.2")]
    assert sorted(events[4:]) == [("stop", "2.8.2"), ("stop", "3.9.2")]  # at the end, side by side


def test_unknown_provider_is_a_clear_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="def test_x(kafka_provider):\n    pass\n")
    result = pytester.runpytest_subprocess("--kc-provider", "nope")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*unknown provider 'nope'; known: process*"])


def test_options_come_from_the_settings_and_bad_values_are_one_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="def test_x(kc_config):\n    print('GRACE', kc_config.stop_grace, kc_config.offline)\n")
    pytester.makeini("[pytest]\nkc_offline = yes\nkc_stop_grace = 12\n")
    result = pytester.runpytest_subprocess("--kc-no-offline", "-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*GRACE 12.0 False*"])  # the option beats the ini, which beats the default
    bad = pytester.runpytest_subprocess("--kc-stop-grace", "nan")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["ERROR: kcompat: --kc-stop-grace='nan': a duration is a finite number of seconds above 0"])


def test_the_plugin_module_only_registers_modules() -> None:
    import importlib

    import kcompat.fixtures.plugin

    for name in kcompat.fixtures.plugin.PLUGIN_MODULES:
        importlib.import_module(name)
    assert kcompat.fixtures.plugin.pytest_plugins == kcompat.fixtures.plugin.PLUGIN_MODULES
    hooks = [name for name in vars(kcompat.fixtures.plugin) if name.startswith("pytest_") and name != "pytest_plugins"]
    assert hooks == []


UNRELATED = '''
import signal
import sys


def test_one():
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    assert not HEAVY & set(sys.modules), sorted(HEAVY & set(sys.modules))


def test_two():
    """After a test's teardown, too."""
    assert not HEAVY & set(sys.modules), sorted(HEAVY & set(sys.modules))


HEAVY = {"kcompat.harness.matrix.claims", "kcompat.harness.matrix.plan", "kcompat.harness.catalog",
         "kcompat.harness.providers", "kcompat.harness.reaper", "kcompat.harness.clients"}
'''


def test_an_unrelated_project_sees_nothing_of_kcompat(tmp_path: Path) -> None:
    """Installed beside someone's tests, the plugin prints nothing, warns nothing, replaces no signal handler
    and loads no claim book until a session asks for it (pytest's own ``plugins:`` line names it, as it names
    every installed plugin)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_one.py").write_text(UNRELATED)
    done = subprocess.run([sys.executable, "-m", "pytest", "-W", "error::pytest.PytestAssertRewriteWarning",
                           "-p", "no:cacheprovider", "-rA"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    output = done.stdout + done.stderr
    assert [line for line in output.splitlines() if "kcompat" in line.lower()
            and not line.startswith("plugins:")] == []
    assert "warning" not in output.lower()
    assert "2 passed" in output


PLUGIN_IMPORTS = {
    "kcompat", "kcompat.fixtures", "kcompat.fixtures.plugin", "kcompat.fixtures.options", "kcompat.fixtures.clusters",
    "kcompat.fixtures.clients", "kcompat.fixtures.cells", "kcompat.harness", "kcompat.harness.config",
    "kcompat.harness.errors",
}
"""Every module, kcompat's or a third party's, that the plugin adds to a session that never asks for it.
Growing it costs every pytest session of the environment (``bench/plugin.py`` measures how much): add a
name here only with a figure in docs/PERFORMANCE.md that says the plugin still costs under 1.10x."""

MODULES_AT_THE_END = '''
import sys


def pytest_unconfigure(config):
    outside = set(sys.stdlib_module_names)
    with open("modules.txt", "w") as out:
        out.write("\\n".join(sorted(m for m in sys.modules if m.split(".")[0] not in outside)))
'''


def _modules_of_a_session(project: Path, *extra: str) -> set[str]:
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra], cwd=project, check=True,
                   capture_output=True, timeout=120,
                   env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")})
    return set((project / "modules.txt").read_text().splitlines())


def test_the_plugin_adds_only_the_allowed_modules_to_an_unrelated_session(tmp_path: Path) -> None:
    """The modules a one-test session has with the plugin and not with ``-p no:kcompat``, at its very end (so
    every hook the plugin ran counts, not just its import), are the allowed ones: a new import fails here."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(MODULES_AT_THE_END)
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n\n\ndef test_two():\n    pass\n")
    added = _modules_of_a_session(tmp_path) - _modules_of_a_session(tmp_path, "-p", "no:kcompat")
    assert added == PLUGIN_IMPORTS, f"added: {sorted(added - PLUGIN_IMPORTS)}; gone: {sorted(PLUGIN_IMPORTS - added)}"


IMPORT_THE_PLUGIN = '''
import importlib
import sys

import pytest

outside = set(sys.stdlib_module_names)
before = set(sys.modules)
for name in importlib.import_module("kcompat.fixtures.plugin").PLUGIN_MODULES:
    importlib.import_module(name)
print("\\n".join(sorted(m for m in set(sys.modules) - before if m.split(".")[0] not in outside)))
'''


def test_importing_the_plugin_loads_only_the_allowed_modules(tmp_path: Path) -> None:
    """The same set, imported beside pytest alone: what another pytest plugin happens to load too (platformdirs
    has one) cannot hide an import of the plugin's."""
    done = subprocess.run([sys.executable, "-c", IMPORT_THE_PLUGIN], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=True)
    added = set(done.stdout.split())
    assert added == PLUGIN_IMPORTS, f"added: {sorted(added - PLUGIN_IMPORTS)}; gone: {sorted(PLUGIN_IMPORTS - added)}"


def test_a_kcompat_fixture_switches_the_plugin_on(pytester: pytest.Pytester) -> None:
    """No option, no ini key: the first kcompat fixture a test takes resolves the config and installs the
    SIGTERM handler (the session has long printed its header, which stays kcompat-free)."""
    pytester.makepyfile(test_one='''
import signal


def test_before():
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_fixture(kc_config, unique_topic):
    assert signal.getsignal(signal.SIGTERM) != signal.SIG_DFL
    assert unique_topic("t").startswith("t-") and unique_topic("t").endswith("-main-2")
    print("OBSERVATIONS", kc_config.observations)
''')
    result = pytester.runpytest_subprocess("-s", "-p", "no:xdist")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*OBSERVATIONS *"])
    result.stdout.no_fnmatch_line("kcompat: provider=*")


def test_naming_the_scenarios_asks_for_kcompat() -> None:
    """No option: the scenarios on the command line switch the plugin on at configure time (header, cells)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:xdist",
                           "src/kcompat/scenarios/test_cells.py", "-m", "kip195"], cwd=root, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "\nkcompat: provider=" in done.stdout
    assert "KIP-195/unknown-topic[4.4.0-kraft|wire]" in done.stdout


def test_this_repositorys_sessions_ask_for_kcompat_from_configure(pytestconfig: pytest.Config) -> None:
    """tests/conftest.py asks: SIGTERM unwinds like Ctrl-C (a cancelled CI tears clusters down) in every
    process of the session, whether or not its tests use a kcompat fixture."""
    import signal

    from kcompat.fixtures.options import ASKED_KEY, CONFIG_KEY

    assert ASKED_KEY in pytestconfig.stash and CONFIG_KEY in pytestconfig.stash
    assert getattr(signal.getsignal(signal.SIGTERM), "__name__", None) == "_raise_interrupt"


def test_pytest_counts_a_judged_cell_in_its_verdicts_word(pytester: pytest.Pytester) -> None:
    """A cell's test passes when judged; pytest's closing line then says what it was judged (a deviation is
    not "passed"), while a test that is no cell keeps pytest's words."""
    pytester.makepyfile(test_cells='''
import pytest


@pytest.mark.parametrize("outcome", ["pass", "unsupported", "deviation", "deviation"])
def test_cell(request, outcome):
    request.node.user_properties.append(("kcompat_outcome", outcome))


def test_plain():
    pass
''')
    result = pytester.runpytest_subprocess("-p", "no:xdist")
    assert result.parseoutcomes() == {"passed": 2, "unsupported": 1, "deviation": 2}
    result.stdout.fnmatch_lines(["*2 passed, 1 unsupported, 2 deviation in *"])
