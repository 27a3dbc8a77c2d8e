#!/usr/bin/env python3
"""ssdsim plot RESULTS.csv --out DIR: the pictures of a sweep (docs/exploration.md), as PNG and
SVG. Started by `ssdsim plot`, which passes --ssdsim."""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def chosen_layout(args):
    """The Layout of --x and its options, or None for every figure; options that only a chosen
    figure takes are refused without --x."""
    from ssdsim_tools.chosen_figure import Layout, parse_y
    if args.x is None:
        given = [name for name in ("y", "group", "relative_to", "reference", "name", "title",
                                   "xlabel") if getattr(args, name)]
        if given or args.yscale != "auto":
            option = "--" + (given[0] if given else "yscale").replace("_", "-")
            raise ValueError(f"{option} draws one chosen figure: give --x too")
        return None
    if not args.y:
        raise ValueError("--x: give the figure to draw with --y")
    relative_to = None
    if args.relative_to:
        key, equals, value = args.relative_to.partition("=")
        if not equals:
            raise ValueError(f"--relative-to {args.relative_to}: not KEY=VALUE")
        relative_to = (key, value)
    reference, reference_label = None, "reference"
    if args.reference:
        path, _, label = args.reference.partition("=")
        reference, reference_label = Path(path), label or reference_label
        if not reference.is_file():
            raise ValueError(f"--reference {path}: no such file")
    return Layout(args.x, [parse_y(y) for y in args.y], args.group, relative_to, reference,
                  reference_label, args.name, args.title, args.xlabel, args.yscale)


def main(argv):
    parser = argparse.ArgumentParser(prog="ssdsim plot", description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", help=argparse.SUPPRESS)
    parser.add_argument("results", help="a sweep's results.csv (its points/ folder beside it)")
    parser.add_argument("--out", required=True, help="folder for the figures")
    parser.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                        help="plot only the rows whose swept KEY is VALUE (repeatable)")
    chosen = parser.add_argument_group(
        "one chosen figure (the default is every figure the results allow)")
    chosen.add_argument("--x", metavar="KEY", help="the swept column along the x axis (numeric: "
                        "lines; else bars)")
    chosen.add_argument("--y", action="append", default=[], metavar="FIGURE[=LABEL]",
                        help="a results.csv column or a report.json path (e.g. gc.erases), "
                        "with its axis label (repeatable: a figure each)")
    chosen.add_argument("--group", action="append", default=[], metavar="KEY",
                        help="a line or bar per value of this swept column (repeatable)")
    chosen.add_argument("--relative-to", metavar="KEY=VALUE",
                        help="each value over that of the configuration with KEY=VALUE (KEY is "
                        "--x or a --group)")
    chosen.add_argument("--reference", metavar="CSV[=LABEL]",
                        help="values to draw beside ours (a paper's): columns --x, the --group "
                        "columns it fixes, and the --y figures")
    chosen.add_argument("--name", default="", help="the files' name (default FIGURE-vs-KEY)")
    chosen.add_argument("--title", default="")
    chosen.add_argument("--xlabel", default="")
    chosen.add_argument("--yscale", choices=("auto", "linear", "log"), default="auto")
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
        layout = chosen_layout(args)
    except ValueError as error:
        print(f"ssdsim plot: {error}", file=sys.stderr)
        return 1
    try:
        written = plot(args.results, args.out, args.where, layout)
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
