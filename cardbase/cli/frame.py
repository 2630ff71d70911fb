"""The frame of the ``cardbase`` command: commands loaded on demand, and its words in one language.

**Start-up.** The root group knows its commands by name (:data:`COMMANDS`) and imports a command's
module only when that command is run or its help is shown, so ``cardbase sticker encode 17`` never
imports the database layer, pandas or Pillow. The command modules import heavy libraries inside
their command functions.

**Language.** Every word the command line prints is French by default and English with
``--lang en`` (before or after the command name) or ``CARDBASE_LANG=en``; an unknown language
(``--lang xx``) falls back to French with a warning on stderr. The language is read from the
arguments before they are parsed, so that the help of every command is already in that language.
A new top-level command goes in :data:`COMMANDS` (a command added to the root Typer directly works
too, but is imported on every run).

Help texts live in ``cardbase/i18n/messages/cli.toml`` under keys derived from the command path, and
replace the (English) texts written in the command modules when the command is loaded:

- ``cli.help.about``: the root command; ``cli.help.<group>.about``, ``cli.help.<group>.<command>.about``;
- ``cli.help.<group>.<command>.opt.<name>``: an option (its long name without dashes: ``dry-run``)
  or an argument (its name, ``_`` written ``-``); when absent, ``cli.help.<group>.opt.<name>`` (shared
  by a group), then ``cli.help.opt.<name>`` (shared by every command).

:func:`missing_help` lists the commands and parameters that have no text in a language (a test
keeps it empty). The words of the command-line library itself (``Usage``, ``Options``, the
``--help`` option, usage errors such as a missing argument or an unknown option) are translated here
too; a usage error prints the usage, a hint and ``erreur : …`` on stderr, with exit code 2.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from difflib import get_close_matches
from importlib import import_module
from typing import Any

import typer
from typer import core as _typer_core

try:  # typer >= 0.24 ships its own copy of click
    from typer import _click as click
except ImportError:  # pragma: no cover - older typer uses click itself
    import click  # type: ignore[no-redef]

from cardbase import i18n

__all__ = ["COMMANDS", "CardbaseGroup", "help_key_candidates", "load_command", "missing_help",
           "requested_language", "split_language"]

# Top-level commands: name -> (module, attribute, kind). "group" is a typer.Typer added under the
# name, "command" a function registered under the name, "register" a function register(app) that
# adds commands (print_cmd adds both ``print`` and ``render``).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "init": ("cardbase.cli.data", "init_command", "command"),
    "cards": ("cardbase.cli.cards", "app", "group"),
    "editions": ("cardbase.cli.data", "editions_app", "group"),
    "data": ("cardbase.cli.data", "data_app", "group"),
    "db": ("cardbase.cli.data", "db_app", "group"),
    "sticker": ("cardbase.cli.sticker", "app", "group"),
    "deck": ("cardbase.cli.deck", "app", "group"),
    "sim": ("cardbase.cli.sim", "app", "group"),
    "games": ("cardbase.cli.games", "app", "group"),
    "solve": ("cardbase.cli.solve", "app", "group"),
    "print": ("cardbase.cli.print_cmd", "register", "register"),
    "render": ("cardbase.cli.print_cmd", "register", "register"),
    "tts": ("cardbase.cli.tts", "app", "group"),
    "proof": ("cardbase.cli.proof", "app", "group"),
}


def _noop() -> None:
    """Only makes the temporary Typer a group."""


def load_command(name: str) -> dict[str, Any]:
    """Import the module of top-level command ``name``; its click command(s) by name."""
    module, attribute, kind = COMMANDS[name]
    target = getattr(import_module(module), attribute)
    holder = typer.Typer()
    holder.callback()(_noop)
    if kind == "group":
        holder.add_typer(target, name=name)
    elif kind == "command":
        holder.command(name)(target)
    else:
        target(holder)
    return dict(typer.main.get_group(holder).commands)


# --------------------------------------------------------------------------- language


def split_language(args: Sequence[str]) -> tuple[str | None, list[str]]:
    """The language asked for, and the arguments the root command should parse.

    ``--lang X`` (or ``--lang=X``) is the root's option, but a user may also write it after the
    command (``cardbase deck stats d.txt --lang en``): there it is taken out of the arguments.
    Without it, CARDBASE_LANG decides. Nothing after ``--`` is looked at.
    """
    lang: str | None = None
    out: list[str] = []
    in_command = False
    i = 0
    while i < len(args):
        token = args[i]
        if token == "--":
            out.extend(args[i:])
            break
        if token == "--lang" or token.startswith("--lang="):
            if "=" in token:
                value, used = token.split("=", 1)[1], 1
            elif i + 1 < len(args):
                value, used = args[i + 1], 2
            else:  # no value: the root's parser says so
                out.append(token)
                break
            lang = value
            if not in_command:
                out.extend(args[i:i + used])
            i += used
            continue
        in_command = in_command or not token.startswith("-")
        out.append(token)
        i += 1
    return (lang if lang is not None else os.environ.get("CARDBASE_LANG") or None), out


def requested_language(args: Sequence[str]) -> str | None:
    """The language asked for by ``--lang``, else by CARDBASE_LANG (None: neither)."""
    return split_language(args)[0]


def choose_language(requested: str | None, *, warn: bool = False) -> str:
    """Make ``requested`` the current language; an unknown one gives French (warned on stderr)."""
    if requested is None:  # every run without --lang or CARDBASE_LANG speaks French, the default
        return i18n.set_language(None)
    code = i18n.set_language(requested)
    if warn and requested.strip().lower()[:2] != code:
        sys.stderr.write(i18n.tr("cli.frame.unknown_language", lang=requested,
                                 languages=", ".join(i18n.LANGUAGES)) + "\n")
    return code


# --------------------------------------------------------------------------- help texts


def _param_name(param: Any) -> str:
    if getattr(param, "param_type_name", "") == "option":
        longs = [o for o in (*param.opts, *param.secondary_opts) if o.startswith("--")]
        if longs:
            return max(longs, key=len).lstrip("-")
    return (param.name or "").replace("_", "-")


def help_key_candidates(path: Sequence[str], param: Any | None = None) -> list[str]:
    """The message keys that may hold the help of command ``path`` or of one of its parameters."""
    if param is None:
        return [".".join(("cli.help", *path, "about"))]
    name = _param_name(param)
    return [".".join(("cli.help", *path[:n], "opt", name)) for n in range(len(path), -1, -1)]


class _HelpValues(dict):
    """Values a help text may name: ``{symbols}`` (the sticker symbols)."""

    def __missing__(self, key: str) -> str:
        if key == "symbols":
            from cardbase.catalog.stickers import SYMBOLS

            return ", ".join(SYMBOLS)
        return "{" + key + "}"


def _lookup(keys: list[str], lang: str) -> str | None:
    for key in keys:
        text = i18n.find(lang, key, area_only=True)
        if text is not None:
            return text.format_map(_HelpValues()) if "{" in text else text
    return None


def _localise_tree(command: Any, path: tuple[str, ...], lang: str) -> None:
    """Put the help texts of ``command`` and its subcommands in ``lang`` (in place)."""
    command.context_class = CardbaseContext
    source = command.__dict__.setdefault("_cardbase_source", (command.help, command.short_help))
    text = _lookup(help_key_candidates(path), lang)
    command.help, command.short_help = (text, None) if text is not None else source
    for param in command.params:
        param_source = param.__dict__.setdefault("_cardbase_source", getattr(param, "help", None))
        text = _lookup(help_key_candidates(path, param), lang)
        param.help = text if text is not None else param_source
    for name, sub in (getattr(command, "commands", None) or {}).items():
        _localise_tree(sub, (*path, name), lang)


def missing_help(command: Any, path: tuple[str, ...] = (), lang: str = i18n.DEFAULT) -> list[str]:
    """Every command and parameter under ``command`` without a help text in ``lang``."""
    out = []
    if _lookup(help_key_candidates(path), lang) is None:
        out.append(" ".join(path) or "cardbase")
    for param in command.params:
        if _lookup(help_key_candidates(path, param), lang) is None:
            out.append(f"{' '.join(path) or 'cardbase'} {_param_name(param)}")
    if isinstance(command, CardbaseGroup):
        subs = {name: command.get_command(None, name) for name in command.list_commands(None)}
    else:
        subs = getattr(command, "commands", None) or {}
    for name, sub in subs.items():
        out.extend(missing_help(sub, (*path, name), lang))
    return out


# --------------------------------------------------------------------------- the library's words

_HEADINGS = {"Options": "cli.frame.options", "Arguments": "cli.frame.arguments",
             "Commands": "cli.frame.commands"}
_RICH_WORDS = {
    "ARGUMENTS_PANEL_TITLE": "cli.frame.arguments",
    "OPTIONS_PANEL_TITLE": "cli.frame.options",
    "COMMANDS_PANEL_TITLE": "cli.frame.commands",
    "DEFAULT_STRING": "cli.frame.default",
    "ENVVAR_STRING": "cli.frame.envvar",
    "REQUIRED_LONG_STRING": "cli.frame.required",
    "DEPRECATED_STRING": "cli.frame.deprecated",
}


def _localise_rich_words() -> None:
    """typer's rich help reads its panel titles and notes from module constants."""
    if not getattr(_typer_core, "HAS_RICH", False):
        return
    try:
        from typer import rich_utils
    except ImportError:  # pragma: no cover - rich not installed
        return
    for name, key in _RICH_WORDS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, i18n.tr(key))
    highlighter = getattr(rich_utils, "OptionHighlighter", None)
    usage = rf"(?P<usage>{re.escape(i18n.tr('cli.frame.usage'))} )"
    if highlighter is not None and usage not in highlighter.highlights:
        highlighter.highlights = [*highlighter.highlights, usage]


_PLAIN_WORDS = {"required": "cli.frame.required_plain", "env var: {var}": "cli.frame.envvar_plain",
                "default: {default}": "cli.frame.default_plain", "Aborted!": "cli.frame.aborted"}


def _gettext(message: str) -> str:
    """typer's words in the help without rich (``TYPER_USE_RICH=0``), in the current language."""
    key = _PLAIN_WORDS.get(message)
    return i18n.tr(key) if key else message


if hasattr(_typer_core, "_"):
    _typer_core._ = _gettext


class CardbaseFormatter(click.HelpFormatter):
    """``Usage:`` and the section headings in the current language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        if prefix is None:
            prefix = i18n.tr("cli.frame.usage") + " "
        super().write_usage(prog, args, prefix)

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        key = _HEADINGS.get(name)
        with super().section(i18n.tr(key) if key else name):
            yield


class CardbaseContext(click.Context):
    formatter_class = CardbaseFormatter

    def __init__(self, command: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(command, *args, **kwargs)
        option = command.get_help_option(self)
        if option is not None:
            option.help = i18n.tr("cli.frame.help_option")

    def get_help(self) -> str:
        _localise_rich_words()
        return super().get_help()


# --------------------------------------------------------------------------- usage errors

_MESSAGES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"No such command '(?P<name>.+?)'\.(?: Did you mean (?P<hint>.+)\?)?$"),
     "cli.frame.no_such_command"),
    (re.compile(r"No such option: (?P<name>\S+)(?: Did you mean (?P<hint>.+)\?)?$"),
     "cli.frame.no_such_option"),
    (re.compile(r"Option '(?P<name>.+?)' requires an argument\.$"), "cli.frame.needs_value"),
    (re.compile(r"Option '(?P<name>.+?)' requires (?P<count>\d+) arguments\.$"),
     "cli.frame.needs_values"),
    (re.compile(r"Option '(?P<name>.+?)' does not take a value\.$"), "cli.frame.takes_no_value"),
    (re.compile(r"Got unexpected extra argument(?:\(s\)|s)? \((?P<args>.*)\)$"),
     "cli.frame.extra_arguments"),
    (re.compile(r"Missing command\.$"), "cli.frame.missing_command"),
]
_VALUE_MESSAGES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?:Value )?(?P<value>'.*') is not a valid (?P<kind>integer|int)\.?$"),
     "cli.frame.not_integer"),
    (re.compile(r"(?:Value )?(?P<value>'.*') is not a valid (?P<kind>float|number)\.?$"),
     "cli.frame.not_number"),
    (re.compile(r"(?:Value )?(?P<value>'.*') is not a valid (?P<kind>boolean|bool)\.?$"),
     "cli.frame.not_boolean"),
    (re.compile(r"(?P<value>'.*') is not one of (?P<choices>.+)\.$"), "cli.frame.not_choice"),
    (re.compile(r"Input should be a valid integer\b.*$"), "cli.frame.not_integer_plain"),
    (re.compile(r"Input should be a valid number\b.*$"), "cli.frame.not_number_plain"),
    (re.compile(r"Input should be a valid boolean\b.*$"), "cli.frame.not_boolean_plain"),
]


def _param_hint(param: Any, ctx: Any) -> str:
    if param is None:
        return ""
    if getattr(param, "param_type_name", "") == "argument":
        return (param.name or "").upper()
    return " / ".join(param.opts)


def _translate_value(message: str) -> str:
    for pattern, key in _VALUE_MESSAGES:
        match = pattern.match(message.strip())
        if match:
            return i18n.tr(key, **match.groupdict())
    return message


def usage_error_message(exc: Any) -> str:
    """The message of a usage error in the current language."""
    kind = type(exc).__name__
    ctx = getattr(exc, "ctx", None)
    param = getattr(exc, "param", None)
    if kind == "MissingParameter":
        what = getattr(exc, "param_type", None) or getattr(param, "param_type_name", "parameter")
        key = {"argument": "cli.frame.missing_argument",
               "option": "cli.frame.missing_option"}.get(what, "cli.frame.missing_parameter")
        return i18n.tr(key, name=getattr(exc, "param_hint", None) or _param_hint(param, ctx))
    if kind == "BadParameter":
        hint = getattr(exc, "param_hint", None) or _param_hint(param, ctx)
        detail = _translate_value(exc.message)
        if hint:
            return i18n.tr("cli.frame.bad_value", name=hint, detail=detail)
        return i18n.tr("cli.frame.bad_value_plain", detail=detail)
    if kind == "NoSuchOption":
        possibilities = getattr(exc, "possibilities", None) or []
        name = getattr(exc, "option_name", "")
        if possibilities:
            return i18n.tr("cli.frame.no_such_option_hint", name=name,
                           hint=", ".join(sorted(possibilities)))
        return i18n.tr("cli.frame.no_such_option", name=name)
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    for pattern, key in _MESSAGES:
        match = pattern.match(message)
        if match:
            values = {k: (v or "") for k, v in match.groupdict().items()}
            values["hint"] = values.get("hint", "").replace("'", "")
            if values.get("hint"):
                return i18n.tr(key + "_hint", **values)
            return i18n.tr(key, **values)
    return message


def report_usage_error(exc: Any) -> None:
    """Usage, a hint and the error on stderr, in the current language."""
    ctx = getattr(exc, "ctx", None)
    lines = []
    if ctx is not None:
        formatter = ctx.make_formatter()
        ctx.command.format_usage(ctx, formatter)
        lines.append(formatter.getvalue().rstrip("\n"))
        if ctx.command.get_help_option(ctx) is not None:
            lines.append(i18n.tr("cli.frame.try_help", command=f"{ctx.command_path} "
                                                                f"{ctx.help_option_names[0]}"))
        lines.append("")
    lines.append(i18n.tr("cli.error", message=usage_error_message(exc)))
    sys.stderr.write("\n".join(lines) + "\n")


@contextmanager
def _usage_errors() -> Iterator[None]:
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.exceptions.UsageError as exc:
        report_usage_error(exc)
        raise typer.Exit(exc.exit_code) from None


class _UnknownCommand(click.exceptions.UsageError):
    pass


# --------------------------------------------------------------------------- the root group


class CardbaseGroup(_typer_core.TyperGroup):
    """The root ``cardbase`` group: commands imported on demand, words in the current language."""

    context_class = CardbaseContext

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    _listing = False

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in COMMANDS and self._listing:
            # The root help lists the commands with their texts, without importing them.
            text = _lookup(help_key_candidates((cmd_name,)), i18n.current_language())
            if text is not None:
                return _typer_core.TyperCommand(cmd_name, help=text)
        if command is None and cmd_name in COMMANDS:
            lang = i18n.current_language()
            for name, loaded in load_command(cmd_name).items():
                _localise_tree(loaded, (name,), lang)
                self.commands.setdefault(name, loaded)
            command = self.commands.get(cmd_name)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in self.list_commands(ctx):
            matches = get_close_matches(name, self.list_commands(ctx))
            if matches:
                message = i18n.tr("cli.frame.no_such_command_hint", name=name,
                                  hint=", ".join(matches))
            else:
                message = i18n.tr("cli.frame.no_such_command", name=name)
            raise _UnknownCommand(message, ctx)
        return super().resolve_command(ctx, args)

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> Any:
        requested, args = split_language(args)
        lang = choose_language(requested, warn=True)
        _localise_tree(self, (), lang)
        with _usage_errors():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with _usage_errors():
            return super().invoke(ctx)
