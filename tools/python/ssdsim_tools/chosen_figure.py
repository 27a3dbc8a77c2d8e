"""A figure the user lays out (`ssdsim plot --x K --y FIGURE ...`, docs/exploration.md): a
results.csv column, or an expression of columns and report.json paths, against one swept column
(or a column of a plain CSV), a line (numeric x) or a bar (other x) per combination of the
--group columns; optionally relative to a baseline configuration, and with reference values (a
paper's) drawn beside each line or bar. The results pages draw their headline figures this
way."""
import ast
import csv
import json
import operator
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt

from .plots import LABELS, SEED, mean_of, named, number, save


@dataclass
class Layout:
    x: str
    ys: list                        # [(column or expression, axis label)]
    groups: list = field(default_factory=list)
    relative_to: tuple = None       # (key, value): each value over that configuration's
    reference: Path = None          # a CSV of reference values
    reference_label: str = "reference"
    name: str = ""                  # the files' name (several --y: NAME-Y)
    title: str = ""
    xlabel: str = ""
    yscale: str = "auto"            # auto | linear | log


def parse_y(text):
    """--y FIGURE[=LABEL]: a column or an expression, and its axis label."""
    figure, _, label = text.partition("=")
    return figure, label or LABELS.get(figure, figure)


class Figures:
    """The value of a figure for a row: its column, else an arithmetic expression (+ - * / and
    parentheses) of numbers, the row's columns and report.json paths, such as a paper's cost
    formula `gc.erases * 0.002 + gc.pages_copied * 0.000351`. A path a report lacks gives no
    value; a plain CSV (no sweep's) has its columns only."""

    OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                 ast.Div: operator.truediv}

    def __init__(self, points_dir):
        self.points_dir = points_dir
        self.reports = {}
        self.parsed = {}

    def value(self, row, figure):
        if figure in row:
            return number(row[figure])
        if figure not in self.parsed:
            try:
                self.parsed[figure] = ast.parse(figure, mode="eval").body
            except SyntaxError:
                raise ValueError(f"--y {figure}: neither a results.csv column nor an expression "
                                 "of report.json paths")
        try:
            return self.evaluate(self.parsed[figure], row)
        except ZeroDivisionError:
            return None

    def report(self, row):
        if self.points_dir is None:  # a plain CSV: its columns only
            return {}
        if row["point"] not in self.reports:
            path = self.points_dir / row["point"] / "report.json"
            self.reports[row["point"]] = json.loads(path.read_text()) if path.exists() else {}
        return self.reports[row["point"]]

    def evaluate(self, node, row):
        if isinstance(node, ast.BinOp) and type(node.op) in self.OPERATORS:
            left, right = self.evaluate(node.left, row), self.evaluate(node.right, row)
            if left is None or right is None:
                return None
            return self.OPERATORS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.evaluate(node.operand, row)
            return None if inner is None else -inner
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, (ast.Name, ast.Attribute)):
            path = path_of(node)
            if path in row:  # a results.csv column (iops, a swept key)
                return number(row[path])
            return self.lookup(self.report(row), path)
        raise ValueError(f"--y: '{ast.unparse(node)}' is not a number, a report path or "
                         "+ - * / of them")

    @staticmethod
    def lookup(report, path):
        for part in path.split("."):
            if not isinstance(report, dict) or part not in report:
                return None
            report = report[part]
        return None if isinstance(report, bool) else number(report)


def path_of(node):
    """`gc.erases` as Python parses it (an attribute of a name) back to its dotted path."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        raise ValueError(f"--y: '{ast.unparse(node)}' is not a report path")
    return ".".join([node.id] + parts[::-1])


def check_columns(layout, swept):
    for column in [layout.x] + layout.groups + ([layout.relative_to[0]]
                                                if layout.relative_to else []):
        if column not in swept:
            raise ValueError(f"'{column}' is not a swept column ({', '.join(swept)})")
    if layout.relative_to and layout.relative_to[0] not in [layout.x] + layout.groups:
        raise ValueError(f"--relative-to {layout.relative_to[0]}: it must be --x or a --group")


def configurations(rows, layout, swept, plain):
    """{(group values, x value): rows} in first-seen order (seeds averaged later). A swept
    column other than x, the groups and the seed that differs within one configuration makes the
    figure ambiguous: refused, naming it. In a plain CSV (no sweep's), each configuration must
    be one row."""
    chosen = layout.groups + [layout.x]  # in the order of a configuration's values
    others = [k for k in swept if k not in chosen and k != SEED] if not plain else []
    result = OrderedDict()
    firsts = {}
    for row in rows:
        key = (tuple(row[g] for g in layout.groups), row[layout.x])
        if plain and key in firsts:
            raise ValueError(f"several rows at {named(chosen, [*key[0], key[1]])}: add a "
                             "--group or a --where")
        first = firsts.setdefault(key, row)
        for other in others:
            if row[other] != first[other]:
                raise ValueError(f"'{other}' takes several values ({first[other]}, {row[other]}) "
                                 f"at {named(chosen, [*key[0], key[1]])}: add --group {other} or "
                                 f"--where {other}=VALUE")
        result.setdefault(key, []).append(row)
    return result


def relative(values, layout):
    """Each configuration's value over the one that differs only in the --relative-to key; the
    baseline configurations themselves are left out (they would all be 1)."""
    if not layout.relative_to:
        return values
    key, base = layout.relative_to
    chosen = layout.groups + [layout.x]
    at = chosen.index(key)
    result = OrderedDict()
    for config, value in values.items():
        flat = list(config[0]) + [config[1]]
        if flat[at] == base:
            continue
        flat[at] = base
        baseline = values.get((tuple(flat[:-1]), flat[-1]))
        result[config] = value / baseline if value is not None and baseline else None
    return result


def reference_values(layout, figure, label, where):
    """{(group values, x value): [values]} from the reference CSV: its rows name the x and
    group columns they set (a group column it lacks matches any value) and the figure's value,
    in a column named by the figure or by its label (an expression's); a row with a column that
    a --where condition fixes to another value is left out."""
    if layout.reference is None:
        return {}
    with open(layout.reference, newline="") as handle:
        rows = list(csv.DictReader(handle))
    if rows and layout.x not in rows[0]:
        raise ValueError(f"{layout.reference}: no column '{layout.x}'")
    conditions = [c.partition("=") for c in where]
    found = {}
    for row in rows:
        if any(key in row and row[key] != value for key, _, value in conditions):
            continue
        value = number(row.get(figure, row.get(label)))
        if value is None:
            continue
        groups = tuple(row.get(g) for g in layout.groups)
        found.setdefault((groups, row[layout.x]), []).append(value)
    return found


def shown(value):
    """How a value is labelled and matched: a file (platform, scenario, trace) by its name
    without folder and suffix, as --where matches it."""
    return Path(value).stem if "/" in value or value.endswith(".toml") else value


def matching(reference, config):
    groups, x = config
    values = []
    for (ref_groups, ref_x), found in reference.items():
        if shown(ref_x) == shown(x) and all(r is None or shown(r) == shown(g)
                                            for r, g in zip(ref_groups, groups)):
            values += found
    return values


def draw_reference(axes, x, values, colour):
    """A reference value as a hollow diamond; a range (the paper gives several) as a bar."""
    if len(values) == 1:
        axes.plot([x], values, linestyle="none", marker="D", markerfacecolor="none",
                  markeredgecolor=colour, markersize=7)
    else:
        axes.plot([x, x], [min(values), max(values)], color=colour, linewidth=2,
                  marker="_", markersize=10)


def line_figure(axes, values, reference, layout):
    groups = OrderedDict()
    for (group, x), value in values.items():
        groups.setdefault(group, []).append((number(x), value))
    ranges = False
    for index, (group, points) in enumerate(groups.items()):
        colour = f"C{index % 10}"
        points = sorted(p for p in points if p[1] is not None)
        label = named(layout.groups, [shown(g) for g in group]) or "ours"
        if points:
            axes.plot(*zip(*points), marker="o", color=colour, label=label)
        refs = sorted((number(x), matching(reference, (group, x))) for (g, x) in values
                      if g == group)
        singles = [(x, found[0]) for x, found in refs if len(found) == 1]
        if singles:
            axes.plot(*zip(*singles), linestyle="--" if len(singles) > 1 else "none",
                      marker="D", markerfacecolor="none", color=colour,
                      label=f"{label}: {layout.reference_label}")
        for x, found in refs:
            if len(found) > 1:  # a range, in black: a paper's range often holds for every line
                draw_reference(axes, x, found, "black")
                ranges = True
    if ranges:
        axes.plot([], [], color="black", linewidth=2, marker="_", markersize=10,
                  label=layout.reference_label)
    xs = [number(x) for _, x in values]
    if len(set(xs)) > 2 and min(xs) > 0 and max(xs) > 10 * min(xs):
        axes.set_xscale("log")


def bar_figure(axes, values, reference, layout):
    xs = list(OrderedDict.fromkeys(x for _, x in values))
    groups = list(OrderedDict.fromkeys(g for g, _ in values))
    width = 0.8 / len(groups)
    for index, group in enumerate(groups):
        colour = f"C{index % 10}"
        offsets = [i + (index - (len(groups) - 1) / 2) * width for i in range(len(xs))]
        heights = [values.get((group, x)) for x in xs]
        axes.bar(offsets, [h or 0 for h in heights], width * 0.9, color=colour,
                 label=named(layout.groups, [shown(g) for g in group]) or None)
        for offset, x in zip(offsets, xs):
            found = matching(reference, (group, x))
            if found:
                draw_reference(axes, offset, found, "black")
    ticks = [shown(x) for x in xs]
    long = max(len(t) for t in ticks) > 12
    axes.set_xticks(range(len(xs)))
    axes.set_xticklabels(ticks, rotation=30 if long else 0, ha="right" if long else "center",
                         fontsize=8)
    if any(len(found) > 1 for found in reference.values()):
        axes.plot([], [], color="black", linewidth=2, marker="_", markersize=10,
                  label=layout.reference_label)
    elif reference:
        axes.plot([], [], linestyle="none", marker="D", markerfacecolor="none",
                  markeredgecolor="black", label=layout.reference_label)


def chosen_figures(rows, swept, points_dir, layout, where, out_dir, written):
    check_columns(layout, swept)
    by_config = configurations(rows, layout, swept, plain=points_dir is None)
    numeric_x = all(number(x) is not None for _, x in by_config)
    figures = Figures(points_dir)
    for figure, label in layout.ys:
        values = OrderedDict()
        for config, group_rows in by_config.items():
            for row in group_rows:
                row[f"chosen:{figure}"] = figures.value(row, figure)
            values[config] = mean_of(group_rows, f"chosen:{figure}")
        if all(v is None for v in values.values()):
            raise ValueError(f"--y {figure}: no run has it (a results.csv column or a "
                             "report.json path such as gc.erases)")
        values = relative(values, layout)
        reference = reference_values(layout, figure, label, where)
        bars = 0 if numeric_x else len(values)
        plot_figure, axes = plt.subplots(figsize=(max(7, 0.2 * bars + 2), 4.5))
        (line_figure if numeric_x else bar_figure)(axes, values, reference, layout)
        if layout.relative_to:
            label += f", over {layout.relative_to[0]}={layout.relative_to[1]}"
            axes.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
        drawn = [v for v in values.values() if v] + [v for vs in reference.values() for v in vs]
        log = layout.yscale == "log" or (layout.yscale == "auto" and drawn and
                                         min(drawn) > 0 and max(drawn) > 10 * min(drawn))
        if log:
            axes.set_yscale("log")
            label = label[:-1] + ", log scale)" if label.endswith(")") else label + " (log scale)"
        axes.set_xlabel(layout.xlabel or layout.x)
        axes.set_ylabel(label)
        axes.set_title(layout.title or f"{label} against {layout.x}", fontsize=9)
        axes.grid(True, alpha=0.3)
        if axes.get_legend_handles_labels()[0] and numeric_x:
            axes.legend(fontsize=7)
        elif axes.get_legend_handles_labels()[0]:  # beside the axes: bars fill them
            axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        base = layout.name or f"{figure}-vs-{layout.x}"
        if layout.name and len(layout.ys) > 1:
            base += f"-{figure}"
        base = re.sub(r"[^A-Za-z0-9._=,+-]", "-", base)
        save(plot_figure, out_dir, base, written)
        write_drawn(Path(out_dir) / f"{base}.csv", values, reference, layout, written)


def write_drawn(path, values, reference, layout, written):
    """The numbers behind a figure, to check it against a table: a row per drawn point, ours
    and the reference's (several values joined by ' to ')."""
    with open(path, "w", newline="") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(layout.groups + [layout.x, "value", layout.reference_label])
        for (group, x), value in values.items():
            found = matching(reference, (group, x))
            out.writerow([shown(g) for g in group] + [shown(x), "" if value is None else
                                                      repr(round(value, 6)),
                                                      " to ".join(repr(round(v, 6)) for v in found)])
    written.append(path)
