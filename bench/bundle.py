"""Console bundle sizes: gzipped JavaScript each route loads, from the built web/dist.

A route loads the entry chunk and what it imports statically, then its page chunk (and
for signed-in routes the layout) with their static imports; what a screen imports with
`import()` (data grid, charts, date pickers) loads after it shows and is not counted. The
baseline is the entry's own closure, which every route pays. Build first:
`cd web && npm run build`.

Exits non-zero when a route is over its budget (BUDGETS, else DEFAULT_BUDGET): the
install script runs it after the console build, so a route that grows fails CI.
"""

import argparse
import gzip
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from bench.common import Figure, report

DIST = Path(__file__).resolve().parents[1] / "web" / "dist"
# Static imports in minified ES modules: `import{a as b}from"./x.js"`, `import"./x.js"`.
STATIC_IMPORT = re.compile(r"""(?:\bimport|\bfrom)\s*["'](\./[^"']+\.js)["']""")
# Budgets in KiB gzipped. Every route should stay under DEFAULT_BUDGET; the sign-in routes,
# which every visit starts with, have a tighter one.
DEFAULT_BUDGET = 250.0
SIGNED_OUT_BUDGET = 172.0
BUDGETS = {
    "LoginPage": 170.0,
}
ENTRY = re.compile(r'<script type="module"[^>]*src="/assets/([^"]+\.js)"')


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dist", type=Path, default=DIST)
    return parser.parse_args(argv)


def closure(assets: Path, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (assets / name).read_text(encoding="utf-8", errors="replace")
        todo += [m.removeprefix("./") for m in STATIC_IMPORT.findall(text)]
    return seen


def gzipped(assets: Path, names: set[str]) -> float:
    return sum(len(gzip.compress((assets / n).read_bytes(), 9)) for n in names) / 1024


def budget(route: str) -> float:
    if route.startswith(("Login", "PasswordReset")):
        return BUDGETS.get(route, SIGNED_OUT_BUDGET)
    return BUDGETS.get(route, DEFAULT_BUDGET)


def main(args: argparse.Namespace) -> int:
    """Prints the figures; returns 1 when a route is over its budget (or nothing is built)."""
    assets = args.dist / "assets"
    if not assets.is_dir():
        print(f"bundle: no build at {args.dist}; run `cd web && npm run build` first")
        return 1
    match = ENTRY.search((args.dist / "index.html").read_text(encoding="utf-8"))
    assert match, "no module entry in index.html"
    entry = closure(assets, match.group(1))
    pages = {p.name.split("-")[0]: p.name for p in assets.glob("*Page-*.js")}
    # The shell (vite.config.ts names its chunk) loads before every signed-in screen.
    layout = next(iter(sorted(assets.glob("shell-*.js"))), None)
    shell = closure(assets, layout.name) if layout else set()
    base = gzipped(assets, entry)
    figures = []
    # The login page may be built into the entry itself, with no chunk of its own.
    for route in sorted({*pages, "LoginPage"}):
        page = closure(assets, pages[route]) if route in pages else set()
        signed_out = route.startswith(("Login", "PasswordReset"))
        names = entry | page | (set() if signed_out else shell)
        target = f"<= {budget(route):g} KiB"
        figures.append(Figure(route, gzipped(assets, names), "KiB gz", "entry", base, target))
    total = gzipped(assets, {p.name for p in assets.glob("*.js")})
    figures.append(Figure("all JavaScript", total, "KiB gz", "entry", base))
    report("bundle", f"{len(figures) - 1} routes from {args.dist}", figures)
    over = [f for f in figures[:-1] if f.value > budget(f.name)]
    for f in over:
        print(f"bundle: {f.name} loads {f.value:.1f} KiB gz, over its budget of {budget(f.name):g}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(parse_args()))
