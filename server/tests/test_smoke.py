from tests.conftest import Org


async def test_signed_in_admin_lists_sites(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").get("/api/sites")
    assert response.status_code == 200
    assert response.headers["x-total-count"] == "2"
    assert [s["name"] for s in response.json()] == sorted(s["name"] for s in response.json())
