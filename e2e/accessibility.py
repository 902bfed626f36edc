"""An axe-core check of the screen a test has open, against WCAG 2.1 A and AA."""

import re
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page

from tests.serve import ROOT

# The console's own devDependency, so CI's npm ci brings it with the rest.
AXE_SCRIPT = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Rules turned off everywhere, each for a reason that is not the console's markup.
SKIPPED_RULES: dict[str, str] = {}
ROUTER = ROOT / "web" / "src" / "app" / "router.tsx"
# A record's id, or "new" for the screen that creates one, in a route's :id place.
RECORD = re.compile(r"[0-9a-f]{24}|new")
# The console's routes this run checked, as the router writes them ("users/:id").
CHECKED_ROUTES: set[str] = set()


def route_of(url: str) -> str:
    parts = urlsplit(url).path.strip("/").split("/")
    return "/".join(":id" if RECORD.fullmatch(part) else part for part in parts)


def console_routes() -> set[str]:
    """Every screen's route in the console's router, but the root's redirect and not-found."""
    paths = re.findall(r"path: '([^']*)'", ROUTER.read_text())
    return {path.strip("/") for path in paths} - {"", "*"}


@cache
def axe_source() -> str:
    if not AXE_SCRIPT.is_file():
        raise RuntimeError("axe-core is missing: scripts/install.sh installs web's packages")
    return AXE_SCRIPT.read_text()


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:
            target = " ".join(str(part) for part in node["target"])
            summary = node.get("failureSummary", "").splitlines()[1:]
            why = "; ".join(line.strip() for line in summary)
            lines.append(f"    {target}: {why}")
            lines.append(f"        {node.get('html', '')[:240]}")
        if len(v["nodes"]) > 5:
            lines.append(f"    ... and {len(v['nodes']) - 5} more")
    return "\n".join(lines)


def axe_violations(page: Page, skip: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Run axe on the page as it is now; skip maps a rule id to why it is off here."""
    # Transitions (a dialog fading in) end first: half-faded text fails contrast.
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.effect?.getTiming().iterations === Infinity)"
    )
    # Evaluated through the debugger, so the console's Content-Security-Policy allows it.
    if not page.evaluate("() => 'axe' in window"):
        page.evaluate(axe_source())
    off = {rule: {"enabled": False} for rule in {**SKIPPED_RULES, **(skip or {})}}
    result = page.evaluate(
        "options => axe.run(document, options)",
        {
            "runOnly": {"type": "tag", "values": WCAG_21_AA},
            "rules": off,
            "resultTypes": ["violations"],
        },
    )
    return list(result["violations"])


def check_accessibility(page: Page, skip: dict[str, str] | None = None) -> None:
    """Fail with each WCAG 2.1 A/AA violation axe finds on the open screen."""
    violations = axe_violations(page, skip)
    CHECKED_ROUTES.add(route_of(page.url))
    assert not violations, f"axe found on {page.url}:\n{describe(violations)}"
