"""What each server process pays to start: CPU seconds to import the server.

Every `tagtrack serve` starts a supervisor, its HTTP workers and a processing child, and
each imports the whole server. The figure is the median CPU time (user + system) of
`python -c "import tagtrack.main"` with the bytecode compiled at install; the baseline, in
the same run, is the same import compiling every module from source, which is what every
process paid where PYTHONDONTWRITEBYTECODE is set (as on many CI machines) before the
install compiled them.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence

from bench.common import Figure, report

IMPORT = "import tagtrack.main"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="imports timed in each way")
    return parser.parse_args(argv)


def import_cpu_seconds(env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", IMPORT], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(args: argparse.Namespace) -> None:
    compiled = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    with tempfile.TemporaryDirectory() as empty:
        # An empty cache folder that nothing is written to: every module compiled from source.
        from_source = {**compiled, "PYTHONPYCACHEPREFIX": empty}
        runs = [
            (import_cpu_seconds(compiled), import_cpu_seconds(from_source))
            for _ in range(args.runs)
        ]
    report(
        "startup",
        f"median of {args.runs} imports each, alternated",
        [
            Figure(
                "import the server, CPU",
                statistics.median(r[0] for r in runs),
                "s",
                "compiling from source",
                statistics.median(r[1] for r in runs),
            )
        ],
    )


if __name__ == "__main__":
    main(parse_args())
