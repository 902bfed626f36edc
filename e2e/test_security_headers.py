"""The console loads and works under its Content Security Policy, with no violations."""

import re
from dataclasses import dataclass, field

from playwright.sync_api import Page, Route, expect

from e2e.conftest import PRIYA, Console, shot, sign_in

SCREENS = (
    "/home",
    "/items",
    "/workers",
    "/zones",
    "/endpoints",
    "/locationtags",
    "/images",
    "/events",
    "/users",
    "/apikeys",
)
# Reports every CSP violation, including ones Chromium does not print to the console.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', e =>
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


@dataclass
class Watched:
    """Console messages and page errors that say a policy blocked something."""

    page: Page
    messages: list[str] = field(default_factory=list)

    def violations(self) -> list[str]:
        recorded = self.page.evaluate("() => window.__cspViolations || []")
        return [*self.messages, *recorded]


def watch(page: Page) -> Watched:
    watched = Watched(page)
    page.add_init_script(RECORD_VIOLATIONS)

    def on_console(message: object) -> None:
        text = str(getattr(message, "text", ""))
        if "Content Security Policy" in text or "Refused to" in text:
            watched.messages.append(text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: watched.messages.append(f"page error: {error}"))
    return watched


def test_the_console_runs_under_its_policy(page: Page, console: Console) -> None:
    watched = watch(page)
    # The sign-in form posts from the page itself: same-origin, so not refused as cross-site.
    sign_in(page, PRIYA, console.demo_password)
    expect(page.get_by_test_id("top-bar")).to_be_visible()
    response = page.goto("/home")
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"
    for path in SCREENS:
        page.goto(path)
        expect(page.get_by_role("main").get_by_role("heading", level=1)).to_be_visible()
        assert watched.violations() == [], path
    shot(page, "console-under-csp")
    # The policy is enforced: a script slipped into the page does not run, and is reported.
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__slipped = 1'; document.body.append(s); }"
    )
    assert page.evaluate("() => window.__slipped") is None
    page.wait_for_function("() => window.__cspViolations.length > 0")
    assert any("script-src" in v for v in watched.violations())


def test_api_docs_render_offline_under_their_policy(
    page: Page, mobile_page: Page, console: Console
) -> None:
    # As on a machine without internet: any request that leaves this server fails.
    foreign: list[str] = []

    def offline(route: Route) -> None:
        if route.request.url.startswith(console.url):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    document = page.request.get(f"{console.url}/api/openapi.json").json()
    operations = [op for path in document["paths"].values() for op in path.values()]
    # Swagger UI lists one line per tag; a tag opens on its operations.
    tags = {tag for op in operations for tag in op.get("tags", ["default"])}
    ingest = [op["operationId"] for op in operations if op.get("tags") == ["ingest"]]
    for current, name in ((page, "api-docs"), (mobile_page, "api-docs-mobile")):
        watched = watch(current)
        current.route("**/*", offline)
        response = current.goto("/api/docs")
        assert response is not None
        assert "script-src 'self';" in response.headers["content-security-policy"]
        # Swagger UI is a large script: give it time to start on a busy machine.
        title = current.get_by_role("heading", name=re.compile("TagTrack"))
        expect(title).to_be_visible(timeout=30_000)
        expect(current.locator("h3.opblock-tag")).to_have_count(len(tags))
        current.locator("h3.opblock-tag", has_text="ingest").click()
        listed = current.locator(".opblock")
        expect(listed).to_have_count(len(ingest))
        assert listed.evaluate_all("els => els.map(e => e.id)") == [
            f"operations-ingest-{operation_id}" for operation_id in ingest
        ]
        reads = current.locator("#operations-ingest-post_reads_api_ingest_reads_post")
        expect(reads).to_contain_text("/api/ingest/reads")
        # Opening an operation changes only the address's #fragment: no navigation to await.
        reads.locator(".opblock-summary").click(no_wait_after=True)
        body = reads.locator(".opblock-section-request-body")
        expect(body.get_by_role("combobox").first).to_be_visible()
        expect(body).to_contain_text('"batchId": "dock-door-1-000042"')
        assert watched.violations() == [], name
        assert foreign == [], name
        shot(current, name)
