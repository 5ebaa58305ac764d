"""The `ginscore` app and what its commands share: one error line and an exit status, never a traceback.

Every command is registered through `command`, which gives it the same help placeholders, the same rule for
numbers, the same completion of match files, and usage errors in the same one-line form as every other error.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable
from typing import Any

import typer
from typer._click.core import Context, Parameter
from typer._click.exceptions import (
    BadParameter,
    ClickException,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer._click.globals import get_current_context
from typer._click.types import IntParamType
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from ..errors import GinscoreError, cut, os_error_text
from ..version import __version__
from .options import PLACEHOLDERS, TYPED_WORDS, WHOLE_NUMBER, complete_match_file


class UsageLine(ClickException):
    """A usage error shown as every other error: one `error:` line, then where to find help."""

    exit_code = 2

    def __init__(self, message: str, command_path: str | None):
        super().__init__(message)
        self.command_path = command_path

    def show(self, file: Any = None) -> None:
        sys.stderr.write(f"error: {self.message}\n")
        if self.command_path:
            sys.stderr.write(f"try '{self.command_path} --help'\n")


def _usage_line(error: UsageError) -> UsageLine:
    """Click's usage error as one sentence, with the typed token cut to a readable length."""
    if isinstance(error, NoSuchOption):
        message = f"no such option: {error.option_name}"
        if error.possibilities:
            message += f" (did you mean {' or '.join(sorted(error.possibilities))}?)"
    elif isinstance(error, MissingParameter) and error.param is not None:
        help = (getattr(error.param, "help", None) or "").rstrip(".")
        message = f"missing {_param_name(error.param)}" + (f" ({help[:1].lower()}{help[1:]})" if help else "")
    elif isinstance(error, BadParameter) and error.param is not None:
        message = f"{_param_name(error.param)}: {error.message}"
    else:
        message = re.sub(r"\. Did you mean (.*)\?$", r" (did you mean \1?)", error.format_message())
        message = message[:1].lower() + message[1:]
    message = re.sub(r"\S{41,}", _cut, message.rstrip("."))
    path = error.ctx.command_path if error.ctx is not None else None
    return UsageLine(message, path)


def _cut(long: re.Match[str]) -> str:
    """A long typed word cut to 40 characters and `…`, keeping the quote or bracket that closes it."""
    word = long.group()
    return cut(word) + (word[-1] if word[-1] in "')\"" else "")


def _param_name(param: Parameter) -> str:
    if isinstance(param, TyperOption):
        return param.opts[0]  # today's name: an old one kept working is never offered
    return param.metavar or (param.name or "").upper()


COMMAND_ORDER = ("new", "play", "record", "show", "odds", "undo", "edit", "check", "score", "advise", "rules", "validate", "stats", "standings", "merge", "backup", "restore", "qr", "serve", "app")
"""The order `ginscore --help` lists the commands in: the order a player meets them. A command missing here comes last."""


class Group(TyperGroup):
    """The `ginscore` group: usage errors from any command become one `error:` line and exit status 2; the
    commands listed in the order a player meets them."""

    def list_commands(self, ctx: Context) -> list[str]:
        names = super().list_commands(ctx)
        rank = {name: index for index, name in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda name: rank.get(name, len(rank)))

    def make_context(self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any) -> Context:
        if any(arg.startswith(_COMPLETION_OPTIONS) for arg in args):
            _use_line_completion()
        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as error:
            raise _rephrased(error) from None

    def _main_shell_completion(self, ctx_args: Any, prog_name: str, complete_var: str | None = None) -> None:
        if COMPLETE_VARIABLE in os.environ:
            _use_line_completion()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as error:
            raise _rephrased(error) from None


COMPLETE_VARIABLE = "_GINSCORE_COMPLETE"
"""Set by the shell's completion script while it asks for completions."""
_COMPLETION_OPTIONS = ("--show-completion", "--install-completion")


def _use_line_completion() -> None:
    from .completion import use_line_completion_for_bash

    use_line_completion_for_bash()


def _rephrased(error: UsageError) -> UsageError | UsageLine:
    # A group typed with nothing after it asks for its help: it is shown whole.
    return error if isinstance(error, NoArgsIsHelpError) else _usage_line(error)


class Command(TyperCommand):
    """A command whose help reads `FILE`, `CARDS...`, `N`, whose numbers are ASCII digits, and whose match
    files complete in the shell."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param.type, IntParamType):
                param.type = WHOLE_NUMBER
            if param.metavar is None and param.name is not None:
                param.metavar = _placeholder(param)
            # click's hook for a parameter's completions (Typer fills it only from `autocompletion=`)
            if param.name in ("file", "files", "paths") and param._custom_shell_complete is None:
                param._custom_shell_complete = complete_match_file

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if ctx.resilient_parsing:
            ctx.meta[TYPED_WORDS] = list(args)
        else:
            self._refuse_repeats(ctx, args)
        return super().parse_args(ctx, args)

    def _refuse_repeats(self, ctx: Context, args: list[str]) -> None:
        """An option that takes one value, given twice (perhaps by its two names, `--cards` and `--knocker`),
        is refused: the last one would otherwise win without a word."""
        options = {name: param for param in self.params if isinstance(param, TyperOption) for name in param.opts}
        typed: dict[str, list[str]] = {}
        words = iter(args)
        for word in words:
            if word == "--":
                break
            param = options.get(word.partition("=")[0]) if word.startswith("--") else options.get(word)
            if param is None:
                continue
            if param.is_flag:
                continue
            if "=" not in word:
                next(words, None)
            if not param.multiple:
                typed.setdefault(param.name or "", []).append(word.partition("=")[0])
        for spelled in typed.values():
            if len(spelled) > 1:
                twice = spelled[0] if spelled[0] == spelled[1] else f"{spelled[0]} and {spelled[1]}"
                given = "is given twice" if spelled[0] == spelled[1] else "are one option, given twice"
                raise UsageError(f"{twice} {given}: give it once", ctx)

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar or "[OPTIONS]"]
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                pieces.append(f"{param.metavar}" if param.required else f"[{param.metavar}]")
        return pieces


def _placeholder(param: Parameter) -> str:
    name = param.name or ""
    word = PLACEHOLDERS.get(name) or ("N" if param.type is WHOLE_NUMBER else name.upper())
    return f"{word}..." if isinstance(param, TyperArgument) and param.nargs != 1 else word


def _show_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"ginscore {__version__}\n")
        raise typer.Exit()


app = typer.Typer(
    name="ginscore",
    cls=Group,
    help="Scorekeeper and hand checker for Gin Rummy played with a real deck.\n\n"
    "\b\nExample:\n  ginscore new friday.toml Ann Bob\n  ginscore play friday.toml",
    no_args_is_help=False,
    invoke_without_command=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def _options(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_show_version, help="Print ginscore's version and exit."
    ),
) -> None:
    """Scorekeeper and hand checker for Gin Rummy played with a real deck."""
    if ctx.invoked_subcommand is None:  # bare `ginscore` asks what there is: the help, and no error
        sys.stdout.write(ctx.get_help() + "\n")
        raise typer.Exit()


def fail(message: str, code: int) -> None:
    """One line on stderr, then exit with `code` (1 refused, 2 bad input); on a terminal it wraps at words."""
    line = "error: " + message
    if sys.stderr.isatty():
        import shutil

        line = wrap_keeping_commands(line, shutil.get_terminal_size().columns)
    sys.stderr.write(line + "\n")
    raise typer.Exit(code)


def wrap_keeping_commands(line: str, width: int) -> str:
    """`line` wrapped at words to `width`, later lines indented; a command in backquotes is never split, so
    that it can be copied whole, even when it is wider than the line."""
    import textwrap

    glued = re.sub(r"`[^`]*`", lambda command: command.group().replace(" ", "\0"), line)
    wrapped = textwrap.fill(glued, width, subsequent_indent="  ", break_on_hyphens=False, break_long_words=False)
    return wrapped.replace("\0", " ")


def reports_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn ginscore's errors into one line and an exit status; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except GinscoreError as error:
            from .mend import mended

            context = get_current_context(silent=True)
            fail(mended(error, context.command if context is not None else None), error.exit_code)
        except KeyboardInterrupt:
            sys.stderr.write("\ninterrupted\n")
            raise typer.Exit(130) from None
        except BrokenPipeError:
            # The reader went away (e.g. `| head -1`): stop quietly, as other command-line tools do.
            sys.stdout = open(os.devnull, "w")
            raise typer.Exit(1) from None
        except OSError as error:
            fail(os_error_text(error), 1)
        except UnicodeDecodeError as error:
            fail(f"the input is not UTF-8 text (byte {error.start} cannot be read)", 2)

    return wrapper


def command(**kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a command on `app`, with ginscore's help placeholders, numbers and error lines."""

    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        return app.command(cls=Command, **kwargs)(reports_errors(func))

    return register


def print_json(data: Any) -> None:
    """`data` as one line of JSON on stdout, non-ASCII characters kept as they are."""
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")

