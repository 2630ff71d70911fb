"""``python -m cardbase ARGS``: the command line from a checkout, without installing the package
(the same commands as ``cardbase ARGS``)."""

from cardbase.cli import app

if __name__ == "__main__":
    app(prog_name="cardbase")
