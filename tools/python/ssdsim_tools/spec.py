"""A sweep spec (docs/exploration.md): a TOML file with a base run, axes and options. Loading it
checks its shape and names the file, line and key of the first thing wrong; enumerating it gives
the points, each an independent `ssdsim run`."""
import hashlib
import itertools
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

# Axis and base keys that are ssdsim options rather than `--set` keys.
OPTION_KEYS = ("platform", "scenario", "trace", "ftl")
FILE_KEYS = ("platform", "scenario", "trace")
TABLES = ("base", "sweep", "points", "options", "slurm")
OPTION_FIELDS = {"seeds": list, "jobs": int, "timeout_s": (int, float)}
SLURM_FIELDS = {"cpus_per_task": int, "mem": str, "time": str, "partition": str, "extra": list}
KEY_PATTERN = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)+$")
# A [[points]] entry's `tags` name the values of the experiment's own axes when its settings are
# derived from them (a paper's log size in MB, run as a block count that also depends on the
# device): columns of results.csv, never passed to ssdsim. Undotted, so never a setting.
TAG_PATTERN = re.compile(r"^[a-z_][a-z0-9_]*$")


class SpecError(Exception):
    """A spec that cannot run: the message names the file, the line and the key."""


@dataclass
class Point:
    """One run: its index in the sweep, its swept values (axis order) and ssdsim's arguments."""
    index: int
    values: dict
    args: list

    @property
    def name(self):
        return point_name(self.values)


@dataclass
class Spec:
    path: Path
    text: str
    base: dict
    axes: dict                     # key -> list of values, spec order
    explicit: list                 # [[points]] tables (may be empty)
    seeds: list
    jobs: int = 0
    timeout_s: float = 0.0
    slurm: dict = field(default_factory=dict)

    def line_of(self, table, key=None):
        return line_of(self.text, table, key)

    def where(self, table, key=None):
        return f"{self.path}:{self.line_of(table, key)}"

    def swept_keys(self):
        """The columns that tell points apart, in spec order: explicit keys, axes, the seed."""
        keys = []
        for point in self.explicit:
            keys += [k for k in point if k not in keys]
        keys += [k for k in self.axes if k not in keys]
        if self.seeds:
            keys.append("workload.seed")
        return keys

    def points(self):
        """Every point, in a fixed order: explicit points (or one empty one) x axes x seeds."""
        explicit = self.explicit or [{}]
        axes = list(self.axes.items())
        seeds = self.seeds or [None]
        index = 0
        for fixed in explicit:
            for combo in itertools.product(*(values for _, values in axes)):
                for seed in seeds:
                    values = dict(fixed)
                    values.update({key: value for (key, _), value in zip(axes, combo)})
                    if seed is not None:
                        values["workload.seed"] = seed
                    yield Point(index, values, self.arguments(values))
                    index += 1

    def count(self):
        per_fixed = math.prod(len(v) for v in self.axes.values()) * max(1, len(self.seeds))
        return max(1, len(self.explicit)) * per_fixed

    def arguments(self, values):
        """ssdsim run's arguments for the base with `values` over it."""
        merged = {k: v for k, v in self.base.items() if k != "set"}
        sets = dict(self.base.get("set", {}))
        for key, value in values.items():
            if key in OPTION_KEYS:
                merged[key] = value
            elif is_tag(key):
                continue
            else:
                sets[key] = value
        args = []
        for key in OPTION_KEYS:
            if key in merged:
                value = merged[key]
                if key in FILE_KEYS:
                    value = self.resolve(value)
                args += [f"--{key}", str(value)]
        for key, value in sets.items():
            args += ["--set", f"{key}={format_value(value)}"]
        return args

    def resolve(self, file_name):
        """A file named in the spec: relative to the spec's folder when it is there."""
        path = Path(file_name)
        if not path.is_absolute() and (self.path.parent / path).exists():
            return str((self.path.parent / path).resolve())
        return str(path)


def is_tag(key):
    return key not in OPTION_KEYS and TAG_PATTERN.match(key) is not None


def format_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def point_name(values):
    """A folder name from the swept values: key=value pairs, file names by their stem."""
    parts = []
    for key, value in values.items():
        if key in FILE_KEYS:
            value = Path(str(value)).stem
        parts.append(f"{key}={format_value(value)}")
    name = re.sub(r"[^A-Za-z0-9._=,+-]", "-", ",".join(parts)) or "base"
    if len(name) > 120:  # file systems cap names at 255 bytes; keep it readable and unique
        name = name[:110] + "~" + hashlib.sha1(name.encode()).hexdigest()[:8]
    return name


def line_of(text, table, key=None):
    """The line of `key` in `table` ([table], [[table]], or [table.sub]); the table's header
    when `key` is None or not found; 1 when neither is."""
    header = None
    current = None
    key_pattern = None
    if key is not None:
        quoted = re.escape(key)
        key_pattern = re.compile(rf'^\s*("{quoted}"|\'{quoted}\'|{quoted})\s*=')
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        match = re.match(r"^\[\[?\s*([^\]]+?)\s*\]\]?", stripped)
        if match:
            current = match.group(1).split(".")[0]
            if current == table and header is None:
                header = number
            continue
        if current == table and key_pattern is not None and key_pattern.match(line):
            return number
    return header or 1


def load(path):
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise SpecError(f"{path}: cannot read the sweep spec ({error.strerror})")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{path}: not valid TOML: {error}")
    spec = Spec(path, text, {}, {}, [], [])
    for table in data:
        if table not in TABLES:
            raise SpecError(f"{spec.where(table)}: unknown table '{table}' "
                            f"(a spec has {', '.join(TABLES)})")
    spec.base = check_base(spec, data.get("base", {}))
    spec.axes = check_axes(spec, data.get("sweep", {}))
    spec.explicit = check_points(spec, data.get("points", []))
    check_options(spec, data.get("options", {}))
    spec.slurm = check_fields(spec, "slurm", data.get("slurm", {}), SLURM_FIELDS)
    if not spec.axes and not spec.explicit and not spec.seeds:
        raise SpecError(f"{spec.path}:1: nothing to sweep: give [sweep] axes, [[points]] or "
                        "options.seeds")
    return spec


def check_key(spec, table, key):
    if key in OPTION_KEYS or KEY_PATTERN.match(key):
        return
    raise SpecError(f"{spec.where(table, key)}: key '{key}': not a run option "
                    f"({', '.join(OPTION_KEYS)}) nor a section.key setting")


def check_value(spec, table, key, value):
    if isinstance(value, (dict, list)) or value is None:
        raise SpecError(f"{spec.where(table, key)}: key '{key}': a value must be a string, "
                        "number or boolean")


def check_base(spec, base):
    for key, value in base.items():
        if key == "set":
            if not isinstance(value, dict):
                raise SpecError(f"{spec.where('base', key)}: key 'set': must be a table of "
                                "section.key = value")
            for set_key, set_value in value.items():
                check_key(spec, "base", set_key)
                check_value(spec, "base", set_key, set_value)
            continue
        if key not in OPTION_KEYS:
            raise SpecError(f"{spec.where('base', key)}: key '{key}': [base] takes "
                            f"{', '.join(OPTION_KEYS)} and a [base.set] table")
        check_value(spec, "base", key, value)
    return base


def check_axes(spec, sweep):
    axes = {}
    for key, values in sweep.items():
        check_key(spec, "sweep", key)
        if not isinstance(values, list):
            raise SpecError(f"{spec.where('sweep', key)}: key '{key}': an axis is a list of "
                            "values")
        if not values:
            raise SpecError(f"{spec.where('sweep', key)}: key '{key}': empty axis")
        for value in values:
            check_value(spec, "sweep", key, value)
        if len(set(map(format_value, values))) != len(values):
            raise SpecError(f"{spec.where('sweep', key)}: key '{key}': a value repeats")
        axes[key] = values
    return axes


def check_points(spec, points):
    if not isinstance(points, list):
        raise SpecError(f"{spec.where('points')}: [[points]] is an array of tables")
    flattened = []
    for point in points:
        tags = point.pop("tags", {})
        if not isinstance(tags, dict):
            raise SpecError(f"{spec.where('points', 'tags')}: key 'tags': a table of "
                            "name = value")
        for tag, value in tags.items():
            if not is_tag(tag):
                raise SpecError(f"{spec.where('points', 'tags')}: tag '{tag}': a tag is a "
                                "lower-case name without dots, not a run option")
            check_value(spec, "points", "tags", value)
        for key, value in point.items():
            check_key(spec, "points", key)
            check_value(spec, "points", key, value)
            if key in spec.axes:
                raise SpecError(f"{spec.where('points', key)}: key '{key}' is also a [sweep] "
                                "axis")
        flattened.append({**tags, **point})  # tags first: they name the point's folder
    return flattened


def check_options(spec, options):
    fields = check_fields(spec, "options", options, OPTION_FIELDS)
    seeds = fields.get("seeds", [])
    if "seeds" in fields and (not seeds or not all(isinstance(s, int) and not isinstance(s, bool)
                                                   and s >= 0 for s in seeds)):
        raise SpecError(f"{spec.where('options', 'seeds')}: key 'seeds': a non-empty list of "
                        "non-negative integers")
    if len(set(seeds)) != len(seeds):
        raise SpecError(f"{spec.where('options', 'seeds')}: key 'seeds': a seed repeats")
    if seeds and "workload.seed" in spec.axes:
        raise SpecError(f"{spec.where('options', 'seeds')}: key 'seeds': workload.seed is "
                        "already an axis")
    spec.seeds = seeds
    spec.jobs = fields.get("jobs", 0)
    spec.timeout_s = float(fields.get("timeout_s", 0))
    if spec.jobs < 0 or spec.timeout_s < 0:
        key = "jobs" if spec.jobs < 0 else "timeout_s"
        raise SpecError(f"{spec.where('options', key)}: key '{key}': must not be negative")


def check_fields(spec, table, given, fields):
    for key, value in given.items():
        if key not in fields:
            raise SpecError(f"{spec.where(table, key)}: unknown key '{table}.{key}' (known: "
                            f"{', '.join(fields)})")
        expected = fields[key]
        if isinstance(value, bool) or not isinstance(value, expected):
            raise SpecError(f"{spec.where(table, key)}: key '{table}.{key}': wrong type "
                            f"({type(value).__name__})")
    return given
