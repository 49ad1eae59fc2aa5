"""The functions of the dmasim package: each builds a command line, runs the
dmasim binary and reads the files it writes."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))


class DmasimError(Exception):
    """dmasim refused the input (exit status 2) or could not run; the message
    is dmasim's own, naming the key, value, file and line."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def _candidates():
    """Where binary() looks, in order, as (place, path or None)."""
    places = [("$DMASIM_EXE", os.environ.get("DMASIM_EXE") or None)]
    # Installed beside the simulator (cmake --install: PREFIX/lib/python3.X/
    # dist-packages/dmasim and PREFIX/bin/dmasim), or in a venv whose bin/
    # holds it (VENV/lib/python3.X/site-packages/dmasim).
    prefix = _HERE
    for _ in range(4):
        prefix = os.path.dirname(prefix)
    exe = os.path.join(prefix, "bin", "dmasim")
    if os.path.basename(os.path.dirname(_HERE)).endswith("-packages") and \
            os.access(exe, os.X_OK) and not os.path.isdir(exe):
        places.append(("beside the package", exe))
    # The source tree's build folders (build/, build-release/, ...), the
    # newest binary first: an out-of-tree build named otherwise needs PATH
    # or $DMASIM_EXE.
    root = os.path.dirname(os.path.dirname(_HERE))
    if os.path.exists(os.path.join(root, "python", "dmasim", "__init__.py")):
        built = [os.path.join(root, d, "sim", "dmasim") for d in sorted(os.listdir(root))
                 if d.startswith("build")]
        built = [b for b in built if os.access(b, os.X_OK)]
        built.sort(key=os.path.getmtime, reverse=True)
        places += [("in the source tree", b) for b in built[:1]]
    places.append(("on PATH", shutil.which("dmasim")))
    return places


def binary():
    """Path of the dmasim binary: $DMASIM_EXE, else the bin/dmasim of the
    prefix the package is installed in, else the newest build*/sim/dmasim
    of the source tree the package sits in, else `dmasim` on PATH."""
    places = _candidates()
    for _, path in places:
        if path:
            return os.path.normpath(path)  # checked when it runs (_call)
    raise DmasimError(
        f"dmasim binary not found for the dmasim package in {_HERE} (Python {sys.executable}): "
        "it looked at $DMASIM_EXE (unset), PREFIX/bin/dmasim of the prefix it is installed in, "
        "the source tree's "
        "build*/sim/dmasim and PATH. Put dmasim on PATH (cmake --install BUILD --prefix PREFIX, "
        "then PREFIX/bin on PATH) or set DMASIM_EXE=/path/to/dmasim", 2)


def install_advice(module, debian_package):
    """How to get `module` for the interpreter running now: Debian's package
    serves Debian's /usr/bin/python3 only (a venv sees it only if made with
    --system-site-packages)."""
    exe = sys.executable
    debian = os.path.realpath(exe).startswith("/usr/bin/python3")
    in_venv = sys.prefix != sys.base_prefix
    if debian and not in_venv:
        return (f"install the Debian package {debian_package} "
                f"(sudo apt-get install {debian_package})")
    pip = f"{exe} -m pip install {module}"
    if in_venv and sys.base_prefix == "/usr" and os.path.isdir(
            os.path.join("/usr/lib/python3/dist-packages", module)):
        return (f"{pip}, or make the venv see Debian's {debian_package}, which is installed "
                "for /usr/bin/python3: /usr/bin/python3 -m venv --system-site-packages VENV")
    return f"{pip} (Debian's {debian_package} serves /usr/bin/python3 only)"


def _call(args, failure_ok=False):
    """Runs dmasim with `args`; returns the CompletedProcess. Exit status 2
    (bad input) raises DmasimError, and so does 1 unless `failure_ok` (a
    failed run or sweep point whose outcome the caller reads from files)."""
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    exe = binary()
    try:
        done = subprocess.run([exe] + args, capture_output=True, text=True, env=env)
    except OSError as e:  # missing, not executable, not a program
        raise DmasimError(f"cannot run the dmasim binary {exe}: {e.strerror}; build or install "
                          "it, put it on PATH or set DMASIM_EXE", 2) from None
    if done.returncode not in (0, 1) or (done.returncode == 1 and not failure_ok):
        message = done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}"
        raise DmasimError(message, done.returncode)
    return done


def version():
    """The binary's version, e.g. "0.1.0"."""
    return _call(["--version"]).stdout.split()[-1]


def _set_args(sets):
    """--set KEY=VALUE arguments from keyword arguments (`__` -> `.`)."""
    args = []
    for name, value in sets.items():
        args += ["--set", f"{name.replace('__', '.')}={_text(value)}"]
    return args


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _write_config(config, folder):
    """`config` as a file dmasim reads: a path is used as it is; a dict is
    written as JSON, which is YAML too (nested sections or dotted keys)."""
    if isinstance(config, (str, os.PathLike)):
        return [os.fspath(config)]
    if isinstance(config, (list, tuple)):
        return [path for part in config for path in _write_config(part, folder)]
    path = os.path.join(folder, f"config{len(os.listdir(folder))}.yaml")
    with open(path, "w") as f:
        json.dump(_absolute_base(config), f, indent=1)
    return [path]


def _absolute_base(config):
    """A `base:` in a dict (a sweep's may list several) is taken relative to
    the current directory (the file dmasim reads lives in a temporary folder)."""
    if not isinstance(config, dict):
        return config
    base = config.get("base")
    if isinstance(base, str):
        return dict(config, base=os.path.abspath(base))
    if isinstance(base, list) and all(isinstance(b, str) for b in base):
        return dict(config, base=[os.path.abspath(b) for b in base])
    return config


def run(config=None, *, trace=None, vcd=None, **sets):
    """Simulates one configuration and returns its report (a dict with
    `config`, `result`, `statistics`, `wall_seconds`; docs/cli.md).

    `config`: a dict (nested or dotted keys), a config file path, a list of
    them (layered left to right), or None for configs/default.yaml.
    Keyword arguments are --set overrides. A failed integrity check still
    returns the report (report["result"]["integrity"] == "fail"); bad input
    raises DmasimError."""
    with tempfile.TemporaryDirectory(prefix="dmasim-run-") as folder:
        files = _write_config(config, folder) if config is not None else []
        report = os.path.join(folder, "report.json")
        args = ["run"] + files + _set_args(sets) + ["--report", report, "--quiet"]
        args += ["--trace", os.fspath(trace)] if trace else []
        args += ["--vcd", os.fspath(vcd)] if vcd else []
        done = _call(args, failure_ok=True)
        if not os.path.exists(report):
            raise DmasimError(done.stderr.strip(), done.returncode)
        with open(report) as f:
            return json.load(f)


def sweep(spec, out=None, *, jobs=None, resume=False, frame=None, **sets):
    """Runs a sweep and returns its results.csv as a pandas DataFrame (a
    list of dicts with frame=False; without pandas, frame=None raises
    DmasimError naming the package to install).

    `spec`: a sweep file path, or a dict with the sections of a sweep file
    (`base`, `set`, `sweep`, `zip`; docs/sweeps.md). `out`: the output
    folder (default: a temporary one, removed afterwards); `resume` reruns
    only points without a complete report. Keyword arguments are --set
    overrides for every point. Failed points, including those whose
    integrity check failed, are missing from the result (dmasim lists them
    in OUT/failures.txt)."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="dmasim-sweep-") as folder:
            return sweep(spec, os.path.join(folder, "out"), jobs=jobs, resume=resume,
                         frame=frame, **sets)
    os.makedirs(out, exist_ok=True)
    if isinstance(spec, (str, os.PathLike)):
        spec_file = os.fspath(spec)
    else:
        spec_file = os.path.join(out, "sweep.yaml")
        with open(spec_file, "w") as f:
            json.dump(_absolute_base(spec), f, indent=1)
    args = ["sweep", spec_file, "--out", os.fspath(out), "--no-plot"] + _set_args(sets)
    args += ["-j", str(jobs)] if jobs else []
    args += ["--resume"] if resume else []
    _call(args, failure_ok=True)
    return load(out, frame=frame)


def _number(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


class Rows(list):
    """load()'s list of dicts; `context` is what plot() needs of the sweep
    (its subtitle and peak line) once the sweep folder is gone."""
    context = None


def load(folder, frame=None):
    """The results.csv of an existing sweep folder (or a CSV path) without
    the points whose integrity check failed: a pandas DataFrame, or with
    frame=False a list of dicts (numbers converted). Without pandas,
    frame=None raises DmasimError naming the package to install."""
    path = os.fspath(folder)
    if os.path.isdir(path):
        path = os.path.join(path, "results.csv")
    context = _sweep_context(os.path.dirname(path))
    if frame is False:
        with open(path, newline="") as f:
            rows = Rows({k: _number(v) for k, v in row.items()} for row in csv.DictReader(f))
        rows[:] = [r for r in rows if r.get("integrity") != "fail"]
        rows.context = context
        return rows
    try:
        import pandas
    except ImportError:
        raise DmasimError(f"pandas is missing for {sys.executable}: "
                          f"{install_advice('pandas', 'python3-pandas')}; or pass frame=False "
                          "for a list of dicts", 1) from None
    df = pandas.read_csv(path)
    if "integrity" in df.columns:
        df = df[df["integrity"] != "fail"].reset_index(drop=True)
    df.attrs["dmasim"] = context
    return df


def _sweep_context(folder):
    """sweep.json's swept keys and plot choice, and the first complete
    point report's config and result; None outside a sweep folder."""
    try:
        with open(os.path.join(folder, "sweep.json")) as f:
            manifest = json.load(f)
        for point in manifest.get("points", []):
            if "skipped" in point:
                continue
            try:
                with open(os.path.join(folder, "points", point["id"] + ".json")) as f:
                    report = json.load(f)
            except (OSError, ValueError):
                continue
            # The whole manifest (dmasim plot checks its shape), naming
            # only the one point whose report goes with it.
            return {"manifest": {**manifest,
                                 "points": [{"index": 0, "id": point["id"], "values": {}}]},
                    "report": {"config": report["config"], "result": report["result"]}}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


# Files plot() wrote in this process: it replaces those, nothing else.
_drawn = set()


def plot(data, output, *, x="workload.entries", y="throughput_gbps",
         series=("workload.chain_depth",), logx=False, logy=False, stack=None, where=None,
         facet=None, overwrite=False):
    """Draws `y` against `x`, one line per value of the `series` columns,
    with `dmasim plot` (the same code, labels, units, subtitle and peak
    line as the CLI). stack="account" (or "account.ch0") draws instead one
    bar per x value split into that cycle account's causes, as
    `dmasim plot --stack` does; `y` is then not used. `where` (a dict
    column -> value) draws only the rows that hold those values, `facet`
    (a column) one panel per value, as --where and --facet do.
    `data`: a sweep folder, a CSV path, or what sweep() or load()
    returned. An existing `output` that plot() did not draw is kept
    (DmasimError) unless overwrite=True. Returns `output`."""
    target = os.path.realpath(os.fspath(output))
    if os.path.lexists(output) and target not in _drawn and not overwrite:
        raise DmasimError(f"{os.fspath(output)} exists and dmasim.plot() did not draw it: "
                          "choose another name or pass overwrite=True", 2)
    with tempfile.TemporaryDirectory(prefix="dmasim-plot-") as folder:
        path = _csv_of(data, folder)
        args = ["plot", path, "-o", os.fspath(output), "--x", x, "--y", y]
        for s in series:
            args += ["--series", s]
        args += ["--logx"] if logx else []
        args += ["--logy"] if logy else []
        args += ["--stack", stack] if stack else []
        for column, value in (where or {}).items():
            args += ["--where", f"{column}={_text(value)}"]
        args += ["--facet", facet] if facet else []
        _call(args)
    _drawn.add(target)
    return output


def _csv_of(data, folder):
    """A CSV path for `data`, writing rows held in memory to `folder`."""
    if isinstance(data, (str, os.PathLike)):
        path = os.fspath(data)
        return os.path.join(path, "results.csv") if os.path.isdir(path) else path
    path = os.path.join(folder, "results.csv")
    _write_context(getattr(data, "attrs", {}).get("dmasim") or getattr(data, "context", None),
                   folder)
    if hasattr(data, "to_csv"):
        data.to_csv(path, index=False)
        return path
    rows = list(data)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)
    return path


def _write_context(context, folder):
    """The sweep's context as `dmasim plot` reads it beside the CSV: a
    sweep.json and the one point report it names."""
    if not context:
        return
    os.makedirs(os.path.join(folder, "points"))
    with open(os.path.join(folder, "sweep.json"), "w") as f:
        json.dump(context["manifest"], f)
    point = context["manifest"]["points"][0]["id"]
    with open(os.path.join(folder, "points", point + ".json"), "w") as f:
        json.dump(context["report"], f)
