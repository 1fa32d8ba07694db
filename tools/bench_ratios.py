#!/usr/bin/env python
"""Run numr's asv suite and print numr/NumPy and numr/torch time ratios per benchmark.

    python tools/bench_ratios.py                     # every benchmark, 5 samples each (--samples N)
    python tools/bench_ratios.py -b Overhead -b Add  # only benchmarks matching these regexes
    python tools/bench_ratios.py --quick             # asv --quick: one call each (smoke test, noisy)
    python tools/bench_ratios.py --no-run            # only print the table of the latest results
    NUMR_BENCH_DEVICES=cpu,wgpu python tools/bench_ratios.py -b elementwise   # also numr on WebGPU

Every benchmark runs in its own process: the whole suite takes tens of minutes on a busy
2-core machine, so pass -b for the benchmarks you need (regexes on "file.Class.method").

It runs ``asv run --python=same`` in asv_bench/ (environment "existing": the numr on this
python's path; the repository root is put on ASV_PYTHONPATH) with its results in a folder of
its own (asv_bench/results/ratios-<time>-<pid>/), then reads that result file and
prints, for every benchmark and parameter combination, the time of each library and the
ratios numr/numpy and numr/torch (< 1 means numr is faster). Benchmarks must take the
library as their first parameter named "lib" (see asv_bench/benchmarks/common.py).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "asv_bench"


def _load_conf() -> dict:
    """asv.conf.json without its // comments."""
    lines = [ln for ln in (BENCH / "asv.conf.json").read_text().splitlines() if not ln.strip().startswith("//")]
    return json.loads("\n".join(lines))


def run_asv(benchmarks: list[str], quick: bool, samples: int, extra: list[str]) -> Path:
    """Run asv into a results folder of this run only (concurrent runs never overwrite each other)."""
    env = dict(os.environ)
    # asv drops PYTHONPATH from the benchmark processes but honours ASV_PYTHONPATH
    env["ASV_PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    run_dir = BENCH / "results" / f"ratios-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    conf = _load_conf()
    # a temporary copy of the configuration outside the checkout, with absolute paths
    conf.update(repo=str(ROOT), benchmark_dir=str(BENCH / "benchmarks"), results_dir=str(run_dir),
                html_dir=str(BENCH / "html"))
    fd, name = tempfile.mkstemp(prefix="numr-asv-", suffix=".json")
    conf_path = Path(name)
    with os.fdopen(fd, "w") as f:
        json.dump(conf, f, indent=2)
    try:
        base = [sys.executable, "-m", "asv", "--config", str(conf_path)]
        subprocess.run(base + ["machine", "--yes"], cwd=BENCH, env=env, check=True, stdout=subprocess.DEVNULL)
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        # --python=same saves results only under an explicit commit hash
        cmd = base + ["run", "--python=same", "--show-stderr", f"--set-commit-hash={head}"]
        if quick:
            cmd.append("--quick")
        else:  # one process round and a fixed number of samples: minutes, not tens of minutes
            cmd += ["-a", "rounds=1", "-a", f"repeat={samples}"]
        for b in benchmarks:
            cmd += ["-b", b]
        cmd += extra
        print("$", " ".join(cmd), f"(in {BENCH})", flush=True)
        subprocess.run(cmd, cwd=BENCH, env=env, check=False)
    finally:
        conf_path.unlink(missing_ok=True)
    return run_dir


def latest_results(folder: Path | None = None) -> Path:
    """The newest result file, in ``folder`` or in any run's folder under asv_bench/results."""
    root = folder or (BENCH / "results")
    files = [p for p in root.rglob("*.json") if p.name not in ("machine.json", "benchmarks.json")]
    if not files:
        sys.exit(f"no asv results found under {root}: run without --no-run first")
    return max(files, key=lambda p: p.stat().st_mtime)


def _value(x: str):
    try:
        return ast.literal_eval(x)
    except (ValueError, SyntaxError):
        return x


def load(path: Path) -> dict[str, dict[tuple, dict[str, float]]]:
    """{benchmark: {other params: {lib: seconds}}} from an asv result file (format 2)."""
    data = json.loads(path.read_text())
    cols = data.get("result_columns", ["result", "params"])
    out: dict[str, dict[tuple, dict[str, float]]] = {}
    for name, row in data["results"].items():
        rec = dict(zip(cols, row, strict=False))
        values, params = rec.get("result"), rec.get("params") or []
        if values is None:
            continue
        if not params:  # unparametrised: no library axis to compare
            continue
        combos = [[]]
        for axis in params:
            combos = [c + [_value(v)] for c in combos for v in axis]
        if not isinstance(values, list):
            values = [values]
        for combo, v in zip(combos, values, strict=False):
            if v is None or (isinstance(v, float) and v != v):
                continue
            lib, rest = combo[0], tuple(combo[1:])
            out.setdefault(name, {}).setdefault(rest, {})[str(lib)] = float(v)
    return out


def fmt_time(s: float) -> str:
    for unit, k in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= k:
            return f"{s / k:.3g} {unit}"
    return f"{s:.3g} s"


def table(results: dict[str, dict[tuple, dict[str, float]]]) -> str:
    numr_libs = sorted({lib for rows in results.values() for libs in rows.values() for lib in libs
                        if lib.startswith("numr")})
    head = ["benchmark", "params"] + [f"{n}" for n in numr_libs] + ["numpy", "torch"]
    for n in numr_libs:
        head += [f"{n}/numpy", f"{n}/torch"]
    rows = [head]
    for name in sorted(results):
        for rest, libs in sorted(results[name].items(), key=lambda kv: str(kv[0])):
            row = [name, ", ".join(str(p) for p in rest)]
            row += [fmt_time(libs[n]) if n in libs else "-" for n in numr_libs]
            row += [fmt_time(libs[n]) if n in libs else "-" for n in ("numpy", "torch")]
            for n in numr_libs:
                for ref in ("numpy", "torch"):
                    row.append(f"{libs[n] / libs[ref]:.2f}" if n in libs and ref in libs else "-")
            rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-b", "--bench", action="append", default=[], help="regex of benchmarks to run (repeatable)")
    ap.add_argument("--quick", action="store_true", help="asv --quick: one call per benchmark (noisy)")
    ap.add_argument("--samples", type=int, default=5, help="timing samples per benchmark (default 5)")
    ap.add_argument("--no-run", action="store_true", help="only print the table of the latest results")
    ap.add_argument("--results", type=Path, help="an asv result JSON file to read instead of the latest")
    ap.add_argument("asv_args", nargs="*", help="extra arguments for asv run (after --)")
    args = ap.parse_args(argv)
    folder = None
    if not args.no_run and args.results is None:
        folder = run_asv(args.bench, args.quick, args.samples, args.asv_args)
    path = args.results or latest_results(folder)
    print(f"\nresults: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    print("times are asv's median per call; ratio < 1: numr is faster\n")
    print(table(load(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
