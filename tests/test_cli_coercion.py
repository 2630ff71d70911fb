"""Option values without pydantic (cardbase.cli.coercion): the same values and the same messages as
Typer's own coercion, and pydantic left unloaded by a command whose values are plain."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer import _coercion
from typer import core as typer_core
from typer.models import ArgumentInfo, OptionInfo

from cardbase.cli import coercion

ROOT = Path(__file__).resolve().parents[1]
TYPER = _coercion.build_runtime_param  # Typer's own, left as it is in its module


def _both(annotation, info, value):
    """(what Typer's coercion gives, what the command line's gives): a value or the message."""
    descriptor = _coercion.resolve_type_descriptor(annotation, info)
    out = []
    for build in (TYPER, typer_core.build_runtime_param):
        try:
            out.append(("value", type(got := build(descriptor)._coerce_value(value, None, None)), got))
        except Exception as exc:  # noqa: BLE001 - the kind and the words must be the same
            out.append(("error", type(exc).__name__, str(exc)))
    return out


def test_the_plain_coercion_is_in_place():
    assert coercion.install() is True  # installed by cardbase.cli, once
    assert typer_core.build_runtime_param is not TYPER


_DIGITS = st.text("0123456789-+._ e", max_size=12)
_VALUES = st.one_of(_DIGITS, st.text(max_size=12), st.integers(-10**20, 10**20),
                    st.floats(allow_nan=False), st.booleans(), st.none().map(lambda _: Path("x")))


@settings(max_examples=600, deadline=None)
@given(annotation=st.sampled_from([str, int, float, bool, Path]), value=_VALUES)
def test_every_value_is_coerced_as_typer_coerces_it(annotation, value):
    typer_out, ours = _both(annotation, OptionInfo(), value)
    if typer_out[0] == "value" and isinstance(typer_out[2], float) and typer_out[2] != typer_out[2]:
        assert ours[0] == "value" and ours[2] != ours[2]  # nan
    else:
        assert ours == typer_out, (annotation, value)


@pytest.mark.parametrize(("annotation", "value"), [
    (int, "007"), (int, "-0"), (int, "12"), (int, "١٢"), (int, " 5"), (int, "1_000"), (int, "5.0"),
    (int, "9" * 30), (int, "abc"), (float, "1.5"), (float, "-0"), (float, "-0.0"), (float, "1e3"),
    (float, ".5"), (float, "inf"), (float, 3), (float, 2**60 + 1), (float, "0.1"),
    (float, "123456789012345.123456789012345"), (str, "\udcff"), (str, ""), (bool, "yes"),
    (Path, ""), (Path, "a/"), (Path, "./a"), (Path, "a//b"), (Path, "x\x00"), (Path, "\udcff"),
    (list[str], ("a", "b")), (list[int], ("1", "x")), (list[Path], ("a", "b/")), (list[str], "a"),
])
def test_edge_values_are_coerced_as_typer_coerces_them(annotation, value):
    typer_out, ours = _both(annotation, OptionInfo(), value)
    assert ours == typer_out


def test_the_plain_coercion_converts_and_defers(tmp_path):
    """The values it converts itself, and those it leaves to Typer (then pydantic)."""
    assert coercion.plain_value(int, "0300") == 300
    assert coercion.plain_value(float, "2.50") == 2.5
    assert coercion.plain_value(Path, "a/b") == Path("a/b")
    for annotation, value in ((int, "3e2"), (int, "١٢"), (float, "nan"), (Path, "a/"),
                              (Path, "x\x00"), (bool, "true"), (str, 3)):
        assert coercion.plain_value(annotation, value) is coercion._NOT_PLAIN


@pytest.mark.parametrize("info", [
    OptionInfo(exists=True), OptionInfo(file_okay=False), OptionInfo(dir_okay=False),
    ArgumentInfo(exists=True, dir_okay=False, readable=True), OptionInfo(writable=True),
])
def test_path_checks_are_typers(tmp_path, info):
    (tmp_path / "file").write_text("x")
    for value in (str(tmp_path / "file"), str(tmp_path), str(tmp_path / "none"), str(tmp_path) + "/"):
        typer_out, ours = _both(Path, info, value)
        assert ours == typer_out, (info, value)


def test_bounds_and_parsers_stay_with_typer():
    for info in (OptionInfo(min=1), OptionInfo(max=3), OptionInfo(parser=int)):
        descriptor = _coercion.resolve_type_descriptor(int, info)
        assert type(typer_core.build_runtime_param(descriptor)) is type(TYPER(descriptor))


def _pydantic_after(*args: str, env: dict[str, str] | None = None) -> tuple[int, bool, str]:
    script = ("import sys\nsys.argv = ['cardbase', *sys.argv[1:]]\nfrom cardbase.cli import main\n"
              "code = 0\ntry:\n    main()\nexcept SystemExit as exc:\n    code = exc.code or 0\n"
              "import json\nsys.stderr.write('\\n' + json.dumps([code, 'pydantic' in sys.modules]))\n")
    full = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    full.pop("CARDBASE_LANG", None)
    done = subprocess.run([sys.executable, "-c", script, *args], env=full, capture_output=True,
                          text=True, timeout=120, check=False)
    lines = done.stderr.strip().splitlines()
    code, loaded = json.loads(lines[-1])
    return code, loaded, "\n".join(lines[:-1])


def test_plain_commands_do_not_load_pydantic(tmp_path):
    code, loaded, _ = _pydantic_after("sticker", "encode", "17")
    assert (code, loaded) == (0, False)
    code, loaded, _ = _pydantic_after("sticker", "decode", "deux points", "--json")
    assert (code, loaded) == (0, False)
    # a value only Typer can judge: pydantic is loaded for it, and the message is Typer's
    code, loaded, err = _pydantic_after("print", "--edition", "NP1", "--out",
                                        str(tmp_path / "x.pdf"), "--dpi", "3e2")
    assert (code, loaded) == (2, True) and "--dpi" in err
