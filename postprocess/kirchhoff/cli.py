"""What every postprocess/ script shares on its command line: the parser (description and epilog
from the script's docstring, -o and --dpi for figure scripts) and the entry point that turns a
LoadError into one line on stderr and exit code 2 instead of a traceback."""
import argparse
import os
import sys

from .errors import LoadError


def parser(doc, output=None, dpi=None):
    """An ArgumentParser whose description is the docstring's first line and whose epilog is the
    rest (kept as written). output: default figure path for -o/--output (None: no -o option);
    dpi: default for --dpi (None: no --dpi option)."""
    lines = (doc or "").strip("\n").splitlines()
    p = argparse.ArgumentParser(description=lines[0] if lines else None,
                                epilog="\n".join(lines[2:]) if len(lines) > 2 else None,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    if output is not None:
        p.add_argument("-o", "--output", default=output or None,
                       help="figure file (PNG)" + (f", default {output}" if output else ""))
    if dpi is not None:
        p.add_argument("--dpi", type=int, default=dpi, help=f"figure resolution (default {dpi})")
    return p


def main(fn, argv=None):
    """Calls fn(argv) and returns its exit code; a LoadError becomes 'script: error: message' on
    stderr and exit code 2 (like argparse's usage errors)."""
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "kirchhoff"
    try:
        rc = fn(sys.argv[1:] if argv is None else argv)
    except LoadError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head
        return 0
    return 0 if rc is None else rc
