#!/usr/bin/env python3
"""ssdsim plot RESULTS.csv --out DIR: the pictures of a sweep (docs/exploration.md), as PNG and
SVG. Started by `ssdsim plot`, which passes --ssdsim."""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv):
    parser = argparse.ArgumentParser(prog="ssdsim plot", description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", help=argparse.SUPPRESS)
    parser.add_argument("results", help="a sweep's results.csv (its points/ folder beside it)")
    parser.add_argument("--out", required=True, help="folder for the figures")
    parser.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                        help="plot only the rows whose swept KEY is VALUE (repeatable)")
    args = parser.parse_args(argv)
    if not Path(args.results).is_file():
        print(f"ssdsim plot: {args.results}: no such file", file=sys.stderr)
        return 1
    try:
        from ssdsim_tools.plots import plot
    except ImportError as error:
        print(f"ssdsim plot: {error} (tools/setup.sh installs python3-matplotlib)",
              file=sys.stderr)
        return 1
    try:
        written = plot(args.results, args.out, args.where)
    except KeyError as error:
        print(f"ssdsim plot: {args.results}: not a sweep's results.csv (no column {error})",
              file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"ssdsim plot: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    if not written:
        print("ssdsim plot: no finished runs to plot", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
