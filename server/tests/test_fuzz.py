"""Fuzzing every operation of the OpenAPI schema against a real server, signed in with an
administrator's key: no 5xx, and every answer matches its documented schema."""

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.database import fresh_database
from tests.serve import ROOT, serve
from tests.test_ingest_durability import ADMIN, ADMIN_PASSWORD

# The live stream answers for as long as its lifetime (up to an hour), never a bounded body:
# test_live.py covers it.
# Newline-delimited reads are documented as a string of lines: sent as text.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")
schema = schemathesis.openapi.from_path(ROOT / "server" / "openapi.json").exclude(path="/api/live")
# Bounded so that every operation together runs in a couple of minutes.
EXAMPLES = 4


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A server with one site, and the headers of an administrator's key for all sites."""
    data_dir: Path = tmp_path_factory.mktemp("fuzz")
    with fresh_database() as url:
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_DATA_DIR": str(data_dir),
            "TAGTRACK_ADMIN_EMAIL": ADMIN,
            "TAGTRACK_ADMIN_PASSWORD": ADMIN_PASSWORD,
            "TAGTRACK_LOGIN_RATE_LIMIT_PER_MINUTE": "100000",
            "TAGTRACK_LOGIN_LOCKOUT_FAILURES": "100000",
        }
        with serve(env) as served, httpx.Client(base_url=served.url, timeout=10) as admin:
            signed_in = admin.post(
                "/api/auth/login", json={"username": ADMIN, "password": ADMIN_PASSWORD}
            )
            assert signed_in.status_code == 200, signed_in.text
            roles = {r["name"]: r["id"] for r in admin.get("/api/roles").json()}
            key = admin.post(
                "/api/apikeys",
                json={
                    "name": "Fuzzing",
                    "roles": [roles["Administrator"]],
                    "securityCtx": {"sites": ["0" * 24]},
                },
            )
            assert key.status_code == 201, key.text
            yield served.url, {"Authorization": f"Bearer {key.json()['token']}"}


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
    derandomize=True,
)
def test_no_server_errors_and_answers_match_the_schema(
    case: schemathesis.Case, fuzzed: tuple[str, dict[str, str]]
) -> None:
    url, headers = fuzzed
    case.call_and_validate(
        base_url=url,
        headers=headers,
        checks=[not_a_server_error, response_schema_conformance],
        timeout=30,
    )
