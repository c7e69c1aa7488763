"""Every ``kcompat`` command README.md and docs/ show has a test that runs it through the console script.

The commands are read from the documents (a ``kcompat`` word, its global options, then words that name a
command in the installed CLI), so a command added to a page without a test fails here.  Each entry of
``RUN_BY`` names test functions; the check reads their source: the command's words as string literals, in a
module that starts the installed ``kcompat`` (``tests/console.py`` or the venv's script), not click's runner.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import click
import pytest

from kcompat.harness.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# command -> the tests that run it as typed ("file::function", paths from the repository's root)
RUN_BY: dict[str, tuple[str, ...]] = {
    "brokers features": ("tests/integration/test_profiles.py::test_the_feature_table_is_what_a_4_1_broker_answers",),
    "clients admin-docs": ("tests/integration/test_admin_docs.py::test_every_public_method_of_a_release_with_its_sentences_and_claims",),
    "run": ("tests/integration/test_matrix.py::test_bad_input_is_one_line_before_anything_boots",
            "tests/integration/test_matrix.py::test_resume_keeps_every_recorded_cell",
            "tests/unit/test_books_as_typed.py::test_a_user_book_may_bring_its_own_source_beside_it",
            "tests/unit/test_claims_doc.py::test_the_worked_example_plans_through_the_console_script",
            "tests/unit/test_cli.py::test_plan_selects_with_m_and_k_exactly_the_cells_pytest_collects",
            "tests/unit/test_client_settings.py::test_a_configuration_is_planned_under_its_one_spelling"),
    "repro": ("tests/integration/test_matrix.py::test_repro_runs_a_recorded_cell_again",
              "tests/integration/test_documented_commands.py::test_repro_keep_keeps_the_cluster_until_ctrl_c"),
    "bisect": ("tests/integration/test_matrix.py::test_bisect_pins_kip525_configs_through_java_to_2_4_0",),
    "qualify": ("tests/integration/test_matrix.py::"
                "test_qualify_fails_on_an_unreviewed_deviation_and_passes_with_the_reviewed_list",
                "tests/unit/test_books_as_typed.py::"
                "test_qualify_runs_the_installed_kcompat_whatever_the_working_directory"),
    "matrix": ("tests/integration/test_matrix.py::test_the_page_of_this_run_in_chromium",
               "tests/unit/page/test_hostile.py::test_a_hostile_record_is_skipped_and_counted"),
    "history ingest": ("tests/integration/test_history.py::"
                       "test_the_documented_commands_as_typed_on_a_relative_store_with_hostile_lines",),
    "history report": ("tests/integration/test_history.py::"
                       "test_the_documented_commands_as_typed_on_a_relative_store_with_hostile_lines",),
    "history gate": ("tests/unit/test_nightly.py::test_the_gate_names_tonights_regressions_only",),
    "brokers list": ("tests/integration/test_documented_commands.py::test_the_broker_nouns",),
    "brokers fetch": ("tests/integration/test_documented_commands.py::test_the_broker_nouns",),
    "brokers probe": ("tests/integration/test_documented_commands.py::test_the_broker_nouns",),
    "brokers reap": ("tests/integration/test_documented_commands.py::test_the_broker_nouns",),
    "brokers check-catalog": ("tests/integration/test_documented_commands.py::test_the_broker_nouns",
                              "tests/integration/test_documented_commands.py::"
                              "test_check_catalog_derive_prints_an_entry_for_each_release_the_catalog_lacks"),
    "brokers up": ("tests/integration/test_documented_commands.py::test_brokers_up_until_ctrl_c",),
    "clients check": ("tests/integration/test_documented_commands.py::"
                      "test_clients_check_reads_every_answer_against_the_contract",),
    "clients survey": ("tests/integration/test_documented_commands.py::test_clients_survey_table_and_records",),
    "clients limits": ("tests/integration/test_limits.py::test_the_installed_release_measures_as_checked_in",
                       "tests/integration/test_limits.py::test_every_tox_line_measures_as_checked_in",
                       "tests/integration/test_limits.py::"
                       "test_an_adapter_release_is_built_as_one_step_and_measured_at_both_ends"),
    "images build": ("tests/integration/test_documented_commands.py::test_images_and_a_broker_in_a_container",),
    "images list": ("tests/integration/test_documented_commands.py::test_images_and_a_broker_in_a_container",),
    "axes choose": ("tests/unit/test_axes.py::test_axes_choose_through_the_console_script",),
    "zoo check": ("tests/unit/test_zoo.py::test_check_judges_each_entry_from_a_runs_records",),
    "zoo run": ("tests/integration/test_zoo.py::test_zoo_run_reproduces_the_entries_on_cached_brokers",),
}
CONSOLE = re.compile(r"from tests\.console import|Path\(sys\.executable\)\.parent / \"kcompat\"")


@cache
def commands() -> frozenset[tuple[str, ...]]:
    """Every command path of the installed CLI: ("run",), ("history", "ingest"), ..."""
    ctx = click.Context(main)
    found: set[tuple[str, ...]] = set()

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                walk(sub, (*path, name))
        else:
            found.add(path)

    walk(main, ())
    return frozenset(found)


def documented_in(text: str) -> set[str]:
    """The commands a document shows: ``kcompat`` (or ``.venv/bin/kcompat``), its global options, a command."""
    valued = {opt for p in main.params if isinstance(p, click.Option) and not p.is_flag for opt in p.opts}
    paths, found = commands(), set()
    for match in re.finditer(r"(?<![\w-])kcompat((?:[ \t]+[^\s`|;)]+)+)", text):
        words = match.group(1).split()
        while words and words[0].startswith("-"):
            option = words.pop(0)
            if option in valued and "=" not in option and words:
                words.pop(0)
        for size in (2, 1):
            if tuple(words[:size]) in paths:
                found.add(" ".join(words[:size]))
                break
    return found


def documented() -> dict[str, list[str]]:
    where: dict[str, list[str]] = {}
    for document in DOCUMENTS:
        for command in documented_in(document.read_text(encoding="utf-8")):
            where.setdefault(command, []).append(document.name)
    return where


def test_the_reader_finds_commands_in_prose_and_code() -> None:
    text = ("`kcompat run --resume`, and .venv/bin/kcompat --provider container brokers up 2.8;\n"
            "```\nkcompat --offline history report --store S\n```\nkcompat makes a venv; kcompat runs it")
    assert documented_in(text) == {"run", "brokers up", "history report"}


def test_every_documented_command_is_mapped_to_a_test() -> None:
    missing = {command: files for command, files in documented().items() if command not in RUN_BY}
    assert not missing, f"documented commands with no console-script test in RUN_BY: {missing}"
    unknown = {command for command in RUN_BY if tuple(command.split()) not in commands()}
    assert not unknown, f"RUN_BY names commands the CLI doesn't have: {unknown}"


def _functions(path: Path) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _reach(functions: dict[str, ast.FunctionDef], name: str) -> list[ast.FunctionDef]:
    """The test function and the module's functions it calls (one level: the helpers that start kcompat)."""
    test = functions[name]
    called = {node.func.id for node in ast.walk(test) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    return [test, *(functions[c] for c in sorted(called) if c in functions and c != name)]


@pytest.mark.parametrize("command", sorted(RUN_BY))
def test_each_mapped_test_runs_the_command_through_the_console_script(command: str) -> None:
    for test in RUN_BY[command]:
        file, name = test.split("::")
        path = ROOT / file
        assert CONSOLE.search(path.read_text(encoding="utf-8")), f"{file} does not start the installed kcompat"
        functions = _functions(path)
        assert name in functions, f"{file} has no test {name}"
        reached = _reach(functions, name)
        runners = [f.name for f in reached if "CliRunner" in ast.unparse(f)]
        assert not runners, f"{test} reaches click's runner in {runners}: run the console script"
        literals = {node.value for f in reached for node in ast.walk(f)
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        words = command.split()
        assert set(words) <= literals, f"{test} never passes {words} to kcompat"
