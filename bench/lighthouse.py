"""Lighthouse performance of the console's login and Events pages, served by `tagtrack serve`.

Starts the real server with the demo data (sites, readers, a simulator posting reads), signs
in a demo administrator and runs Lighthouse 12 (performance category only) in Debian's
Chromium against the login page and the Events page of a site, signed in by sending the
session cookie with every request (`--extra-headers`). Both presets by default: mobile
(Lighthouse's default: simulated slow 4G and a 4x slower CPU) and desktop. Each page runs
--runs times per preset and the run with the median score is reported, with its metrics and
Lighthouse's CPU index of the machine during that run (load from other work lowers it).
The baseline is a static page of a few lines served by the same server in the same run:
what the server, Chromium and the throttling model allow here at that moment, no console.
Lighthouse is installed by `npm ci` into bench/lighthouse/ (its own lock file) when missing.
Its package.json pins, by an override, the one dependency Lighthouse asks for as `latest`:
otherwise `npm ci` refuses the lock file as soon as a newer version is published.
Then, outside Lighthouse, the time until the Events page shows its first event row in
Chromium with its CPU throttled 4x (the DevTools protocol's own throttling) and an empty
cache, against the static page's heading under the same throttling.
Build the console first: `cd web && npm run build`.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from bench.common import Figure, report, server_env
from tagtrack.access.dependencies import SESSION_COOKIE
from tests.database import fresh_database
from tests.serve import Served, serve

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "web" / "dist"
TOOL = Path(__file__).resolve().parent / "lighthouse"
LIGHTHOUSE = TOOL / "node_modules" / ".bin" / "lighthouse"
ADMIN = "lighthouse.admin@example.com"
ADMIN_PASSWORD = "Lighthouse-Bench-2026!"
DEMO_ADMIN = "priya.raman@northwind.example.com"
DEMO_SITE = "Chicago Cross-Dock"
PRESETS = ("mobile", "desktop")
# The performance scores the console aims for: 90 on a phone, 98 on a desktop.
TARGETS = {"mobile": "≥ 90", "desktop": "≥ 98"}
PAGES = ("static page", "login", "Events")
# A cell of an event row of the Events table (the loading and empty rows have none).
EVENT_CELL = "main [role=gridcell]"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
METRICS = {
    "FCP": "first-contentful-paint",
    "LCP": "largest-contentful-paint",
    "TBT": "total-blocking-time",
    "CLS": "cumulative-layout-shift",
    "SI": "speed-index",
}
HELLO = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>TagTrack</title></head>
<body><h1>TagTrack</h1><p>A static page: the baseline of the console's Lighthouse runs.</p></body>
</html>
"""


@dataclass
class Run:
    score: float
    metrics: dict[str, float]
    # Lighthouse's own measure of this machine's speed during the run (higher is faster).
    benchmark_index: float
    report: str


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page and preset")
    parser.add_argument("--preset", choices=[*PRESETS, "both"], default="both")
    parser.add_argument("--dist", type=Path, default=DIST)
    parser.add_argument("--pages", nargs="+", choices=list(PAGES), default=list(PAGES))
    parser.add_argument("--reports", type=Path, help="keep each run's full Lighthouse JSON here")
    return parser.parse_args(argv)


def chrome_path() -> str:
    for candidate in (os.environ.get("CHROME_PATH", ""), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("chromium")
    if not found:
        raise RuntimeError("Chromium is missing: scripts/install.sh --browser installs it")
    return found


def install_lighthouse() -> None:
    """Lighthouse lives in its own folder with its lock file, apart from the console."""
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=TOOL, check=True)


# Lighthouse now and then loses its own trace of a load (NO_NAVSTART, NO_FCP): run it again.
ATTEMPTS = 3


class LighthouseFailed(RuntimeError):
    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"lighthouse failed on {url}: {reason}")
        self.reason = reason


def lighthouse(url: str, preset: str, headers: dict[str, str] | None = None) -> Run:
    for _ in range(ATTEMPTS - 1):
        try:
            return _lighthouse_once(url, preset, headers)
        except LighthouseFailed as failed:
            print(f"lighthouse {preset} {url}: {failed.reason.strip()}; running it again")
    return _lighthouse_once(url, preset, headers)


def _lighthouse_once(url: str, preset: str, headers: dict[str, str] | None) -> Run:
    command = [
        str(LIGHTHOUSE),
        url,
        "--only-categories=performance",
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if preset == "desktop":
        command.append("--preset=desktop")
    if headers:
        command.append(f"--extra-headers={json.dumps(headers)}")
    done = subprocess.run(
        command,
        env={**os.environ, "CHROME_PATH": chrome_path()},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise LighthouseFailed(url, done.stderr[-2000:])
    result = json.loads(done.stdout)
    if result.get("runtimeError"):
        raise LighthouseFailed(url, str(result["runtimeError"]))
    score = result["categories"]["performance"]["score"]
    if score is None:
        raise RuntimeError(f"lighthouse gave no score on {url}: {result.get('runWarnings')}")
    audits = result["audits"]
    metrics = {name: audits[key]["numericValue"] for name, key in METRICS.items()}
    return Run(score * 100, metrics, result["environment"]["benchmarkIndex"], done.stdout)


def median_run(runs: list[Run]) -> Run:
    """The run with the median score (Lighthouse's own advice for noisy machines)."""
    middle = statistics.median_low([r.score for r in runs])
    return next(r for r in runs if r.score == middle)


@contextmanager
def demo_console(dist: Path, files: dict[str, str] | None = None) -> Iterator[tuple[Served, str]]:
    """`tagtrack serve --demo` on a fresh database, serving a copy of the built console (with
    `files` added to it by name): the server, and the demo users' password."""
    with (
        tempfile.TemporaryDirectory(prefix="tagtrack-console-") as folder,
        fresh_database() as database,
    ):
        served_dist = Path(folder) / "dist"
        shutil.copytree(dist, served_dist)
        for name, text in (files or {}).items():
            (served_dist / name).write_text(text, encoding="utf-8")
        env = server_env(
            database,
            str(Path(folder) / "data"),
            web_dist=str(served_dist),
            admin_email=ADMIN,
            admin_password=ADMIN_PASSWORD,
        )
        with serve(env, "--demo", timeout=180) as served:
            password = served.printed("Demo password")
            assert password, served.text()
            yield served, password


def sign_in(url: str, password: str) -> tuple[str, str]:
    """The demo administrator's session cookie and the first demo site's id."""
    with httpx.Client(base_url=url, timeout=60) as client:
        credentials = {"username": DEMO_ADMIN, "password": password}
        signed_in = client.post("/api/auth/login", json=credentials)
        signed_in.raise_for_status()
        sites = client.get("/api/sites")
        sites.raise_for_status()
        ids = {site["name"]: site["_id"] for site in sites.json()}
        return client.cookies["tagtrack_session"], ids.get(DEMO_SITE) or next(iter(ids.values()))


def keep(folder: Path | None, name: str, preset: str, runs: list[Run]) -> None:
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    for n, run in enumerate(runs, 1):
        path = folder / f"{name.replace(' ', '-')}-{preset}-{n}.json"
        path.write_text(run.report, encoding="utf-8")


def metrics_line(name: str, run: Run) -> str:
    shown = "  ".join(
        f"{k} {v:.3f}" if k == "CLS" else f"{k} {v:,.0f} ms" for k, v in run.metrics.items()
    )
    return f"  {name:<22} score {run.score:5.0f}   {shown}  CPU index {run.benchmark_index:,.0f}"


# Chromium's own CPU throttling, as Lighthouse's mobile preset simulates it.
SLOWER_CPU = 4
# In the page, every frame: the time since navigation once the selector matches, else 0.
SHOWN_AT = "selector => document.querySelector(selector) ? performance.now() : 0"


def first_shown_ms(url: str, selector: str, session: str | None, runs: int) -> list[float]:
    """Milliseconds from navigation until `selector` is on screen, each run in a new browser
    context (an empty cache) on a 4x slower CPU, the network as it is."""
    samples = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chrome_path(), args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            for _ in range(runs):
                context = browser.new_context()
                if session:
                    cookie = {"name": SESSION_COOKIE, "value": session, "url": url}
                    context.add_cookies([cookie])  # type: ignore[list-item]
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWER_CPU})
                page.goto(url, wait_until="commit")
                shown = page.wait_for_function(
                    SHOWN_AT, arg=selector, polling="raf", timeout=60_000
                )
                samples.append(float(shown.json_value()))
                context.close()
        finally:
            browser.close()
    return samples


def main(args: argparse.Namespace) -> None:
    if not (args.dist / "index.html").is_file():
        print(f"lighthouse: no build at {args.dist}; run `cd web && npm run build` first")
        return
    install_lighthouse()
    presets = PRESETS if args.preset == "both" else (args.preset,)
    load_before = os.getloadavg()
    # The built console as it is, plus the baseline page, served by the same server.
    with demo_console(args.dist, {"hello.html": HELLO}) as (served, password):
        session, site = sign_in(served.url, password)
        cookie = {"Cookie": f"tagtrack_session={session}"}
        pages = {
            "static page": (f"{served.url}/hello.html", None),
            "login": (f"{served.url}/login", None),
            "Events": (f"{served.url}/events?site={site}", cookie),
        }
        results: dict[tuple[str, str], Run] = {}
        for preset in presets:
            for name in args.pages:
                url, headers = pages[name]
                runs = [lighthouse(url, preset, headers) for _ in range(args.runs)]
                results[name, preset] = median_run(runs)
                keep(args.reports, name, preset, runs)
                scores = ", ".join(f"{r.score:.0f}" for r in runs)
                print(f"lighthouse {preset:<7} {name:<12} scores {scores}", flush=True)
        first_row = first_shown_ms(pages["Events"][0], EVENT_CELL, session, args.runs)
        static_heading = first_shown_ms(pages["static page"][0], "h1", None, args.runs)
    load_after = os.getloadavg()
    print("\nmedian runs (Lighthouse's simulated throttling for the preset):")
    for (name, preset), run in results.items():
        print(metrics_line(f"{name} ({preset})", run))
    figures = []
    for preset in presets:
        base = results["static page", preset].score if "static page" in args.pages else 0.0
        for name in (n for n in ("login", "Events") if n in args.pages):
            score = results[name, preset].score
            figures.append(
                Figure(f"{name} ({preset})", score, "score", "static page", base, TARGETS[preset])
            )
    shown = ", ".join(f"{ms:,.0f}" for ms in first_row)
    print(f"first event row, {SLOWER_CPU}x slower CPU, empty cache: {shown} ms")
    figures.append(
        Figure(
            f"first event row, {SLOWER_CPU}x slower CPU, empty cache",
            statistics.median(first_row), "ms",
            "static page's heading, same CPU", statistics.median(static_heading), "< 2000 ms",
        )
    )  # fmt: skip
    setup = (
        f"median of {args.runs} runs, Chromium {chrome_version()}, "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after"
    )
    report("lighthouse", setup, figures)


def chrome_version() -> str:
    done = subprocess.run([chrome_path(), "--version"], capture_output=True, text=True, check=False)
    return done.stdout.split()[1] if done.stdout.split()[1:] else "?"


if __name__ == "__main__":
    main(parse_args())
