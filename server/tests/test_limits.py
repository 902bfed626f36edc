"""Huge bodies are refused before they are read; nothing changes and the server stays up."""

import json

from tests.conftest import Org


async def test_a_body_over_the_limit_is_refused_with_413(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    huge = json.dumps({"name": "x" * (3 * 1024 * 1024)})
    response = await client.post(
        "/api/sites", content=huge, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["reason"] == "too large"
    assert (await client.get("/api/sites")).headers["x-total-count"] == "2"


async def test_a_streamed_body_without_length_is_counted(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")

    async def chunks():  # no content-length: the size is only known while reading
        for _ in range(40):
            yield b"x" * (100 * 1024)

    response = await client.post(
        "/api/orgsettings", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["reason"] == "too large"
    assert (await client.get("/api/orgsettings")).status_code == 200
