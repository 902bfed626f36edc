"""The list parameters every list endpoint shares: limit, page, sort, search, search2."""

from datetime import UTC, datetime

import httpx
import pytest

from tagtrack.models import Site
from tests.conftest import Org
from tests.helpers import assert_error, site_body

START = datetime(2024, 1, 1, tzinfo=UTC)
# (path, role that may list it)
LISTS = [
    ("/api/users", "Administrator"),
    ("/api/sites", "Administrator"),
    ("/api/organizations", "Super Admin"),
]


async def org_with_sites(org_factory, role: str) -> tuple[Org, httpx.AsyncClient]:
    org: Org = await org_factory()
    client = org.client(role)
    # Enough sites to page through.
    for name in ("Quay 100%", "Quay_2", "Quay 3", "Quay 4"):
        response = await org.client("Administrator").post("/api/sites", json=site_body(name))
        assert response.status_code == 201, response.text
    return org, client


async def total(client: httpx.AsyncClient, path: str, **params: object) -> int:
    response = await client.get(path, params=params)
    assert response.status_code == 200, response.text
    return int(response.headers["x-total-count"])


@pytest.mark.parametrize(("path", "role"), LISTS)
async def test_pages_cover_the_list_exactly_once(org_factory, path: str, role: str) -> None:
    _, client = await org_with_sites(org_factory, role)
    count = await total(client, path, limit=10000)
    assert count >= 3
    seen: list[str] = []
    page = 0
    while True:
        response = await client.get(path, params={"limit": 2, "page": page, "sort": "name"})
        assert response.status_code == 200
        assert int(response.headers["x-total-count"]) == count
        rows = response.json()
        assert len(rows) <= 2
        if not rows:
            break
        seen += [r.get("_id") or r["id"] for r in rows]
        page += 1
    assert len(seen) == len(set(seen)) == count


def runs(names: list[str]) -> list[str]:
    """Names with repeats collapsed: equal names may come in either order."""
    return [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]


@pytest.mark.parametrize(("path", "role"), LISTS)
async def test_minus_sorts_descending(org_factory, path: str, role: str) -> None:
    _, client = await org_with_sites(org_factory, role)
    up = (await client.get(path, params={"sort": "name", "limit": 10000})).json()
    down = (await client.get(path, params={"sort": "-name", "limit": 10000})).json()
    names = runs([r["name"] for r in up])
    assert len(names) >= 3
    assert runs([r["name"] for r in down]) == list(reversed(names))


@pytest.mark.parametrize(("path", "role"), LISTS)
async def test_invalid_sort_field_is_a_400(org_factory, path: str, role: str) -> None:
    _, client = await org_with_sites(org_factory, role)
    for sort in ("bogus", "-bogus", "org_id", "name;drop table users"):
        body = assert_error(await client.get(path, params={"sort": sort}), 400, "invalid sort")
        assert "name" in body["message"]


OUT_OF_RANGE: list[tuple[dict[str, object], str]] = [
    ({"limit": 10001}, "limit"),
    ({"limit": 0}, "limit"),
    ({"limit": -5}, "limit"),
    ({"limit": "many"}, "limit"),
    ({"page": -1}, "page"),
    ({"page": "first"}, "page"),
    ({"page": 10**10}, "page"),
    ({"sort": "n" * 65}, "sort"),
    ({"search": "s" * 201}, "search"),
    ({"search2": "s" * 201}, "search2"),
]


@pytest.mark.parametrize(("path", "role"), LISTS)
async def test_out_of_range_list_parameters_are_422(org_factory, path: str, role: str) -> None:
    org: Org = await org_factory()
    client = org.client(role)
    for params, field in OUT_OF_RANGE:
        body = assert_error(await client.get(path, params=params), 422, "validation", field)
        assert body["message"].startswith(f"{field}: "), body


@pytest.mark.parametrize(("path", "role"), LISTS)
async def test_the_largest_limit_is_accepted(org_factory, path: str, role: str) -> None:
    org: Org = await org_factory()
    response = await org.client(role).get(path, params={"limit": 10000})
    assert response.status_code == 200
    assert len(response.json()) == int(response.headers["x-total-count"])


@pytest.mark.parametrize(("path", "role"), LISTS)
async def test_a_page_past_the_end_is_empty_with_the_total(org_factory, path: str, role: str):
    _, client = await org_with_sites(org_factory, role)
    count = await total(client, path)
    response = await client.get(path, params={"page": 500, "limit": 25})
    assert response.status_code == 200
    assert response.json() == []
    assert int(response.headers["x-total-count"]) == count


async def test_default_page_size_is_25(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    async with sessionmaker() as session, session.begin():
        session.add_all(
            Site(org_id=org.id, name=f"Bay {n:02}", start_date=START, timezone="UTC")
            for n in range(28)
        )
    response = await client.get("/api/sites")
    assert response.headers["x-total-count"] == "30"
    assert len(response.json()) == 25
    second = await client.get("/api/sites", params={"page": 1})
    assert len(second.json()) == 5


async def test_search_is_case_insensitive_and_treats_wildcards_literally(org_factory) -> None:
    _, client = await org_with_sites(org_factory, "Administrator")
    assert await total(client, "/api/sites", search="quay") == 4
    assert await total(client, "/api/sites", search="QUAY 3") == 1
    percent = (await client.get("/api/sites", params={"search": "100%"})).json()
    assert [s["name"] for s in percent] == ["Quay 100%"]
    assert await total(client, "/api/sites", search="%") == 1
    assert [s["name"] for s in (await client.get("/api/sites", params={"search": "_"})).json()] == [
        "Quay_2"
    ]
    assert await total(client, "/api/sites", search="no such site") == 0
    # Blank searches match everything.
    assert await total(client, "/api/sites", search="   ") == 6


async def test_search2_is_fuzzy_and_combines_with_paging(org_factory) -> None:
    _, client = await org_with_sites(org_factory, "Administrator")
    quays = ["Quay 100%", "Quay 3", "Quay 4", "Quay_2"]
    response = await client.get("/api/sites", params={"search2": "Quayy", "sort": "name"})
    assert response.status_code == 200
    assert sorted(s["name"] for s in response.json()) == sorted(quays)
    assert response.headers["x-total-count"] == "4"
    assert await total(client, "/api/sites", search2="zzzzzzzz") == 0
    limited = await client.get("/api/sites", params={"search2": "quay", "limit": 1, "page": 3})
    assert len(limited.json()) == 1
    assert limited.headers["x-total-count"] == "4"


async def test_a_nul_character_in_a_search_is_bad_input(org_factory) -> None:
    _, client = await org_with_sites(org_factory, "Administrator")
    for param in ("search", "search2"):
        response = await client.get("/api/sites", params={param: "Quay\x00"})
        assert_error(response, 400, "invalid input")
    assert await total(client, "/api/sites") == 6


async def test_search_and_search2_combine(org_factory) -> None:
    _, client = await org_with_sites(org_factory, "Administrator")
    response = await client.get("/api/sites", params={"search": "4", "search2": "Quay"})
    assert [s["name"] for s in response.json()] == ["Quay 4"]
    assert response.headers["x-total-count"] == "1"
