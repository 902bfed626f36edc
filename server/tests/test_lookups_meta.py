"""Look-ups, version, probes, metrics, the OpenAPI document and unknown API paths."""

import pytest

from tagtrack import __version__
from tests.conftest import Org
from tests.helpers import assert_error


async def test_timezones_are_sorted_iana_names(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Viewer").get("/api/timezones")
    assert response.status_code == 200
    zones = [z["id"] for z in response.json()]
    assert zones == sorted(zones)
    assert {"Europe/London", "America/New_York", "UTC"} <= set(zones)
    assert all(set(z) == {"id"} for z in response.json())


async def test_timezones_need_a_session(anonymous) -> None:
    assert_error(await anonymous.get("/api/timezones"), 401, "unauthorized")


async def test_version_is_public(anonymous) -> None:
    response = await anonymous.get("/api/version")
    assert response.status_code == 200
    assert response.json() == {"version": __version__}
    assert __version__ == "1.31.2"


async def test_health_probe_checks_the_database(anonymous) -> None:
    response = await anonymous.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def version_requests(metrics: str) -> float:
    for line in metrics.splitlines():
        labels = line.partition("}")[0]
        if (
            line.startswith("tagtrack_http_requests_total{")
            and 'method="GET"' in labels
            and 'route="/api/version"' in labels
            and 'status="200"' in labels
        ):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_metrics_count_requests_by_route(anonymous) -> None:
    before = version_requests((await anonymous.get("/metrics")).text)
    for _ in range(3):
        assert (await anonymous.get("/api/version")).status_code == 200
    response = await anonymous.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "# TYPE tagtrack_http_requests_total counter" in response.text
    assert "tagtrack_http_request_seconds_bucket" in response.text
    assert version_requests(response.text) == before + 3


async def test_openapi_document_lists_the_api(anonymous) -> None:
    response = await anonymous.get("/api/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/auth/login", "/api/users", "/api/sites/{site_id}/settings"):
        assert path in paths
    assert response.json()["info"]["version"] == __version__


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE"])
async def test_unknown_api_path_is_a_json_404(org_factory, method: str) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").request(method, "/api/no/such/thing")
    assert_error(response, 404, "not found", "/api/no/such/thing")


async def test_unknown_api_path_is_404_even_without_a_session(anonymous) -> None:
    assert_error(await anonymous.get("/api/nothing-here"), 404, "not found")


async def test_unsupported_method_is_a_json_405(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").patch("/api/users", json={})
    assert_error(response, 405, "method not allowed")
