"""``kcompat``: the command line, one module per noun (``brokers``, ``clients``, ``images``) and the matrix's
commands (``run``, ``repro``, ``bisect``: ``matrix.py``).

Thin: parses options, shows progress, calls the harness.  The global options
are generated from ``kcompat.harness.config.SETTINGS``.  Nouns are registered by name
in ``NOUNS`` and loaded when used; packages above the harness (reports) add
their own (``kcompat history``) through the entry-point group
``kcompat.commands`` without the harness importing them.

Exit codes: 0 done; 1 a ``HarnessError``; 2 a usage error; 130 Ctrl-C (during
boot or after it, with the cluster stopped first).  Every error is one
``kcompat: error:`` line on stderr.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, NoReturn

import click
from rich.markup import escape

from ..config import SETTINGS, HarnessConfig, Setting
from ..errors import ConfigError, HarnessError
from ..providers import PROVIDERS
from ..reaper import install_signal_handlers
from .display import note

ENTRY_POINT_GROUP = "kcompat.commands"
NOUNS: dict[str, str] = {
    "brokers": "kcompat.harness.cli.brokers:brokers",
    "clients": "kcompat.harness.cli.clients:clients",
    "images": "kcompat.harness.cli.images:images",
    "run": "kcompat.harness.cli.run:run_command",
    "repro": "kcompat.harness.cli.run:repro_command",
    "bisect": "kcompat.harness.cli.run:bisect_command",
    "zoo": "kcompat.harness.cli.zoo:zoo",
    "axes": "kcompat.harness.cli.axes:axes",
}
"""This package's command groups, as ``module:attribute``; loaded only when used."""
EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 1, 2, 130


def error_line(message: str) -> None:
    note(f"[red]kcompat: error:[/] {escape(' '.join(message.split()))}")


def _load(name: str, target: str, origin: str) -> click.Command:
    """The command ``target`` names; one that can't be loaded says why when run, and in help."""
    module, _, attribute = target.partition(":")
    try:
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is a {type(command).__name__}, not a click command")
        return command
    except Exception as exc:  # noqa: BLE001 - a broken plug-in must not take the other commands down
        reason = f"command {name!r} ({target}, {origin}) can't be loaded: {type(exc).__name__}: {exc}"

        def broken() -> NoReturn:
            raise ConfigError(reason)

        return click.Command(name, callback=broken, help=f"(unavailable: {reason})",
                             context_settings={"ignore_unknown_options": True, "allow_extra_args": True})


class KcompatGroup(click.Group):
    """The top-level group: nouns loaded on demand, and every failure one line with its exit code."""

    def _discovered(self) -> dict[str, str]:
        return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *NOUNS, *self._discovered()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if (command := self.commands.get(cmd_name)) is not None:
            return command
        if cmd_name in NOUNS:
            command = _load(cmd_name, NOUNS[cmd_name], "built in")
        elif (target := self._discovered().get(cmd_name)) is not None:
            command = _load(cmd_name, target, f"entry point group {ENTRY_POINT_GROUP}")
        else:
            return None
        self.add_command(command, cmd_name)
        return command

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:  # an embedding caller handles exceptions itself
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name or "kcompat", complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else "", err=True)
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            where = f"; see '{exc.ctx.command_path} --help'" if exc.ctx else ""
            error_line(exc.format_message().rstrip(".") + where)
            sys.exit(EXIT_USAGE)
        except click.Abort:  # Ctrl-C: click turns KeyboardInterrupt into Abort
            note("kcompat: interrupted")
            sys.exit(EXIT_INTERRUPTED)
        except click.ClickException as exc:
            error_line(exc.format_message())
            sys.exit(exc.exit_code)
        except HarnessError as exc:
            error_line(str(exc))
            sys.exit(EXIT_ERROR)
        sys.exit(code if isinstance(code, int) else 0)


def _help(setting: Setting) -> str:
    default = "on" if setting.default is True else "off" if setting.default is False else setting.default
    return f"{setting.help[0].upper()}{setting.help[1:]} [{setting.env}; default: {default or 'none'}]."


def setting_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """One option per setting: ``--offline/--no-offline`` for a flag, ``--boot-timeout SECONDS``..."""
    for setting in reversed(SETTINGS):
        if setting.is_flag:
            option = click.option(f"{setting.option}/--no-{setting.option[2:]}", setting.name, default=None,
                                  help=_help(setting))
        else:
            metavar = "|".join(setting.choices) or {"float": "SECONDS", "int": "N", "Path": "DIR"}.get(
                setting.type.__name__, "TEXT")
            option = click.option(setting.option, setting.name, default=None, metavar=metavar, help=_help(setting))
        func = option(func)
    return func


def check_provider(name: str) -> str:
    if name not in PROVIDERS:
        raise ConfigError(f"unknown provider {name!r}; known: {', '.join(sorted(PROVIDERS))}")
    return name


@click.group("kcompat", cls=KcompatGroup, context_settings={"help_option_names": ["-h", "--help"]})
@setting_options
@click.pass_context
def main(ctx: click.Context, /, **options: Any) -> None:
    """kcompat: Apache Kafka admin-API compatibility harness."""
    config = HarnessConfig.resolve([(lambda s: s.option, options)])
    check_provider(config.provider)
    ctx.obj = config


def run() -> None:
    """The console script: signals unwind into teardown (not done for in-process callers of ``main``)."""
    install_signal_handlers()
    main()


__all__ = ["ENTRY_POINT_GROUP", "NOUNS", "main", "run"]
