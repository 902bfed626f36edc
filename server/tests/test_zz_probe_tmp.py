from tests.helpers import site_body


async def test_probe(org_factory, anonymous):
    org = await org_factory()
    c = org.client("Administrator")
    reqs = [
        lambda: c.post("/api/sites", json=site_body("a\u0000b")),
        lambda: c.get("/api/sites", params={"page": 10**15}),
        lambda: c.get("/api/sites", params={"page": 10**19}),
        lambda: c.get("/api/sites", params={"search": "a\u0000"}),
        lambda: anonymous.post(
            "/api/auth/login", json={"username": "a\u0000@x.com", "password": "x"}
        ),
        lambda: c.post("/api/orgsettings", json={"itemLabel": "\u0000"}),
        lambda: c.get(f"/api/sites/ab%00c"),
        lambda: c.post("/api/check/email", json={"email": "a\u0000"}),
        lambda: c.get("/api/accessRules", params={"roles": "a\u0000"}),
        lambda: c.post("/api/sites", json=site_body("x", startDate="0001-01-01T00:00:00-05:00")),
        lambda: c.post("/api/sites", json=site_body("y", startDate="9999-12-31T23:59:59-05:00")),
    ]
    for i, req in enumerate(reqs):
        try:
            r = await req()
            print("RESULT", i, r.status_code, r.text[:150])
        except Exception as e:
            print("RESULT", i, "EXC", type(e), str(e)[:200])
