"""Typer's option values without pydantic where the value is plain: the start-up of a command.

Typer (0.2x with its own copy of click) turns every value of the command being run — the
defaults included — into its annotated type through a pydantic ``TypeAdapter`` built for each
parameter: importing pydantic and building about twenty adapters costs about a tenth of a second
of CPU on every ``cardbase`` command (a quarter of a short command's start-up), for values that
are already of their type (``dpi=300``, ``--edition NP1``).

:func:`install` puts a plain coercion in front of Typer's. It converts only the values whose
result is known without pydantic and the same as pydantic's, for the annotations the command
line declares — ``str``, ``int``, ``float``, ``bool``, ``pathlib.Path`` and lists of them, with
no parser, bounds nor choices:

- a value already of its type (a default, a flag), and an ``int`` for a ``float``;
- a ``str`` for ``int`` made of ASCII digits (an optional ``-``, at most 18 digits), for ``float``
  the same with an optional ``.`` and decimals: Python reads them as pydantic does (exact, and
  correctly rounded);
- any ``str`` for ``str``; for a ``Path``, a ``str`` without a NUL that ``Path`` writes back the
  same (no trailing ``/``, ``./`` nor ``//``: Typer's messages name the value as given), then
  Typer's own path checks (exists, file or folder, readable…), as Typer does after pydantic.

Every other value (``--dpi abc``, ``1e3``, a NUL in a path…) and every other annotation goes to
Typer's own coercion, built only then: pydantic is loaded for it, and the value or the error
message is Typer's, word for word. ``tests/test_cli_coercion.py`` compares both on generated
values. With a Typer that coerces otherwise (older versions used click's types, no pydantic),
:func:`install` leaves it as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin

__all__ = ["install", "plain_value"]

_INT = re.compile(r"-?[0-9]{1,18}")
_FLOAT = re.compile(r"-?[0-9]{1,15}(?:\.[0-9]{1,15})?")
_PLAIN = (str, int, float, bool, Path)
_NOT_PLAIN = object()  # plain_value's answer when Typer's coercion must decide


def plain_value(annotation: Any, value: Any) -> Any:
    """``value`` as Typer's pydantic coercion gives it for ``annotation`` (one of the plain
    types), or ``_NOT_PLAIN`` when only that coercion can tell (the value or the message)."""
    kind = type(value)
    if annotation is str:
        return value if kind is str else _NOT_PLAIN
    if annotation is bool:
        return value if kind is bool else _NOT_PLAIN
    if annotation is int:
        if kind is int:
            return value
        return int(value) if kind is str and _INT.fullmatch(value) else _NOT_PLAIN
    if annotation is float:
        if kind is float:
            return value
        if kind is int and abs(value) < 2**53:
            return float(value)
        return float(value) if kind is str and _FLOAT.fullmatch(value) else _NOT_PLAIN
    if annotation is Path:
        if kind is str and "\x00" not in value:
            path = Path(value)
            # only a path written as Path writes it: Typer's messages name the value as given
            return path if str(path) == value else _NOT_PLAIN
        return value if kind is type(Path()) else _NOT_PLAIN
    return _NOT_PLAIN


def _plain_annotation(descriptor: Any) -> tuple[Any, bool] | None:
    """(the item type, whether a list) when the parameter may take the plain coercion."""
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or getattr(info, "parser", None) is not None:
        return None
    if getattr(info, "min", None) is not None or getattr(info, "max", None) is not None:
        return None
    annotation, many = descriptor.annotation, False
    if get_origin(annotation) is list:
        args = get_args(annotation)
        if len(args) != 1:
            return None
        annotation, many = args[0], True
    if annotation not in _PLAIN:
        return None
    if any(getattr(info, name, None) for name in ("allow_dash", "path_type", "resolve_path")):
        return None  # another kind of path, or a str Typer would treat as a path
    return annotation, many


def install() -> bool:
    """Put the plain coercion in front of Typer's, once; whether it is in place."""
    try:
        from typer import _coercion, _param_types
        from typer import core as typer_core
    except ImportError:  # a Typer without pydantic coercion: nothing to do
        return False
    real = getattr(typer_core, "build_runtime_param", None)
    base = getattr(_coercion, "RuntimeParam", None)
    path_check = getattr(_param_types, "coerce_cli_path", None)
    if real is None or base is None or path_check is None:
        return False
    if getattr(real, "_cardbase_plain", False):
        return True

    @dataclass(frozen=True)
    class PlainRuntimeParam(base):  # type: ignore[misc, valid-type]
        """Plain values converted here; any other value by Typer's coercion, built then."""

        item: Any = None
        many: bool = False
        descriptor: Any = None
        _typer: list = field(default_factory=list)

        def _fallback(self, value: Any, param: Any, ctx: Any) -> Any:
            if not self._typer:
                self._typer.append(real(self.descriptor))
            return self._typer[0]._coerce_value(value, param=param, ctx=ctx)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.many:
                if not isinstance(value, (list, tuple)):
                    return self._fallback(value, param, ctx)
                out = [plain_value(self.item, v) for v in value]
                if any(v is _NOT_PLAIN for v in out):
                    return self._fallback(value, param, ctx)
            else:
                out = plain_value(self.item, value)
                if out is _NOT_PLAIN:
                    return self._fallback(value, param, ctx)
            if self.item is Path:  # Typer's own checks, as after its conversion
                if self.many:
                    return [self._path(v, param, ctx) for v in out]
                return self._path(out, param, ctx)
            return out

        def _path(self, value: Path, param: Any, ctx: Any) -> Any:
            return path_check(value, self.parameter_info, path_type=Path, param=param, ctx=ctx)

    def build_runtime_param(descriptor: Any) -> Any:
        plain = _plain_annotation(descriptor)
        if plain is None:
            return real(descriptor)
        return PlainRuntimeParam(parameter_info=descriptor.parameter_info,
                                 annotation=descriptor.annotation, item=plain[0], many=plain[1],
                                 descriptor=descriptor)

    build_runtime_param._cardbase_plain = True  # type: ignore[attr-defined]
    typer_core.build_runtime_param = build_runtime_param
    return True
