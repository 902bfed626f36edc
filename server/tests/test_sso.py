"""Single sign-on against a real OpenID Connect provider (node oidc-provider) started here."""

import html
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlparse

import httpx
import pytest

from tagtrack.core.config import Settings
from tagtrack.main import create_app
from tests.conftest import PASSWORD, Org
from tests.helpers import assert_error
from tests.oidc_provider import OidcProvider, oidc_provider


@pytest.fixture(scope="module")
def provider() -> Iterator[OidcProvider]:
    with oidc_provider() as started:
        yield started


@asynccontextmanager
async def browser(app: object, host: str) -> AsyncIterator[httpx.AsyncClient]:
    """A cookie-keeping client: TagTrack on `host`, anything else over the network."""
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))  # type: ignore[arg-type]
    async with httpx.AsyncClient(
        mounts={f"http://{host}": transport}, base_url=f"http://{host}", timeout=20
    ) as client:
        yield client


def host_of(org: Org) -> str:
    return f"{org.subdomain}.tagtrack.test"


async def enable(org: Org, okta: bool = True, entra: bool = False) -> None:
    body = {"name": "SSO Org", "subdomain": org.subdomain, "oktaEnabled": okta}
    body["entraEnabled"] = entra
    response = await org.client("Super Admin").put(f"/api/organizations/{org.id}", json=body)
    assert response.status_code == 200, response.text


async def configure_okta(org: Org, provider: OidcProvider, tamper: str | None = None) -> None:
    redirect = f"http://{host_of(org)}/api/auth/okta/callback"
    client_id, secret = provider.register("okta", [redirect], tamper)
    settings = {
        "oktaIssuer": provider.okta_issuer,
        "oktaClientId": client_id,
        "oktaClientSecret": secret,
    }
    response = await org.client("Administrator").put("/api/ssosettings", json=settings)
    assert response.status_code == 200, response.text


async def okta_org(org_factory, provider: OidcProvider, tamper: str | None = None) -> Org:
    org: Org = await org_factory()
    await configure_okta(org, provider, tamper)
    await enable(org)
    return org


async def sign_in_with(
    client: httpx.AsyncClient,
    kind: str,
    login: str,
    referer: str = "",
    change_callback: Any = None,
) -> httpx.Response:
    """Go through the flow as a browser would; return TagTrack's answer to the callback."""
    response = await client.get(
        f"/api/auth/{kind}/redirect", params={"referer": referer} if referer else None
    )
    assert response.status_code == 302, response.text
    location = response.headers["location"]
    if location.startswith("/login"):
        return response
    form_page = await client.get(location, follow_redirects=True)
    assert form_page.status_code == 200, form_page.text
    action = re.search(r'<form[^>]*action="([^"]+)"', form_page.text)
    assert action, form_page.text
    response = await client.post(
        urljoin(str(form_page.url), html.unescape(action.group(1))),
        data={"prompt": "login", "login": login, "password": "any"},
    )
    for _ in range(10):
        assert response.status_code in (302, 303), response.text
        location = urljoin(str(response.url), response.headers["location"])
        if f"/api/auth/{kind}/callback" in location:
            if change_callback is not None:
                location = change_callback(location)
            return await client.get(location)
        response = await client.get(location)
    raise AssertionError("the provider never returned to TagTrack")


def sso_error(response: httpx.Response) -> str:
    assert response.status_code == 302, response.text
    location = response.headers["location"]
    assert location.startswith("/login?"), location
    return parse_qs(urlparse(location).query)["error"][0]


# --- availability and settings ------------------------------------------------------------------


async def test_available_only_when_configured_and_enabled_for_the_subdomain(
    app, org_factory, provider
) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    async with browser(app, host_of(org)) as client:

        async def available(kind: str) -> dict[str, bool]:
            response = await client.get(f"/api/auth/{kind}/available")
            assert response.status_code == 200
            return dict(response.json())

        assert await available("okta") == {"available": False, "enabled": False}
        await enable(org)
        assert await available("okta") == {"available": False, "enabled": True}
        await configure_okta(org, provider)
        assert await available("okta") == {"available": True, "enabled": True}
        # Entra needs a tenant (and this installation's registration).
        assert await available("entra") == {"available": False, "enabled": False}
    # Another organization's subdomain, and a host that names none, offer nothing.
    for host in (host_of(other), "unknown-org.tagtrack.test", "127.0.0.1:8000"):
        async with browser(app, host) as client:
            response = await client.get("/api/auth/okta/available")
            assert response.json() == {"available": False, "enabled": False}, host


async def test_a_signed_in_user_is_answered_for_their_own_organization(
    org_factory, provider
) -> None:
    org: Org = await org_factory()
    await enable(org)
    admin = org.client("Administrator")  # on the main address, no subdomain
    response = await admin.get("/api/auth/okta/available")
    assert response.json() == {"available": False, "enabled": True}
    await configure_okta(org, provider)
    response = await admin.get("/api/auth/okta/available")
    assert response.json() == {"available": True, "enabled": True}


async def test_settings_never_send_the_secret_back(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    empty = (await admin.get("/api/ssosettings")).json()
    assert empty["oktaIssuer"] == "" and empty["oktaClientSecretSet"] is False
    assert empty["oktaRedirectUri"] == "http://tagtrack.test/api/auth/okta/callback"
    body = {
        "oktaIssuer": "https://acme.okta.com/oauth2/default/",
        "oktaClientId": "0oa1client",
        "oktaClientSecret": "very-secret-value",
        "entraTenant": "contoso.onmicrosoft.com",
    }
    saved = await admin.put("/api/ssosettings", json=body)
    assert saved.status_code == 200, saved.text
    assert "very-secret-value" not in saved.text
    read = await admin.get("/api/ssosettings")
    assert "very-secret-value" not in read.text
    got = read.json()
    assert got["oktaIssuer"] == "https://acme.okta.com/oauth2/default"
    assert got["oktaClientId"] == "0oa1client"
    assert got["oktaClientSecret"] == "" and got["oktaClientSecretSet"] is True
    assert got["entraTenant"] == "contoso.onmicrosoft.com"
    # An empty secret keeps the stored one; removing Okta removes it.
    kept = await admin.put("/api/ssosettings", json={**body, "oktaClientSecret": ""})
    assert kept.json()["oktaClientSecretSet"] is True
    cleared = await admin.put("/api/ssosettings", json={"entraTenant": ""})
    assert cleared.json()["oktaClientSecretSet"] is False
    assert cleared.json()["oktaIssuer"] == ""


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"oktaIssuer": "http://evil.example.com"}, "oktaIssuer"),
        ({"oktaIssuer": "ftp://acme.okta.com"}, "oktaIssuer"),
        ({"entraTenant": "contoso tenant/../"}, "entraTenant"),
        ({"oktaClientId": "x" * 201}, "oktaClientId"),
    ],
)
async def test_settings_validation(org_factory, changes: dict[str, str], field: str) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").put("/api/ssosettings", json=changes)
    assert_error(response, 422, "validation", field)


@pytest.mark.parametrize("role", ["Manager", "Operator", "Viewer"])
async def test_settings_need_sso_rights(org_factory, role: str) -> None:
    org: Org = await org_factory()
    assert_error(await org.client(role).get("/api/ssosettings"), 403, "forbidden")
    assert_error(await org.client(role).put("/api/ssosettings", json={}), 403, "forbidden")


async def test_settings_are_per_organization(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    await org.client("Administrator").put("/api/ssosettings", json={"entraTenant": "tenant-a"})
    assert (await other.client("Administrator").get("/api/ssosettings")).json()["entraTenant"] == ""


# --- the flow ------------------------------------------------------------------------------------


async def test_okta_sign_in_through_the_real_provider(app, org_factory, provider) -> None:
    org = await okta_org(org_factory, provider)
    username = org.usernames["Viewer"]
    async with browser(app, host_of(org)) as client:
        redirect = await client.get("/api/auth/okta/redirect")
        query = parse_qs(urlparse(redirect.headers["location"]).query)
        # The code flow with PKCE (S256), state and nonce.
        assert redirect.headers["location"].startswith(f"{provider.okta_issuer}/auth?")
        assert query["response_type"] == ["code"]
        assert query["code_challenge_method"] == ["S256"]
        assert len(query["code_challenge"][0]) == 43
        assert query["state"][0] and query["nonce"][0]
        assert query["redirect_uri"] == [f"http://{host_of(org)}/api/auth/okta/callback"]
        assert "openid" in query["scope"][0].split()

        done = await sign_in_with(client, "okta", username)
        assert done.status_code == 302, done.text
        assert done.headers["location"] == "/items"
        me = await client.get("/api/users/me")
        assert me.status_code == 200
        assert me.json()["username"] == username
    log = await org.client("Administrator").get("/api/auditlog", params={"action": "sso.login"})
    assert [e["actor"] for e in log.json()] == [username]


async def test_sign_in_returns_to_the_referer_on_this_site_only(app, org_factory, provider) -> None:
    org = await okta_org(org_factory, provider)
    async with browser(app, host_of(org)) as client:
        done = await sign_in_with(client, "okta", org.usernames["Manager"], referer="/sites?x=1")
        assert done.headers["location"] == "/sites?x=1"
    for referer in ("//evil.example.com/x", "https://evil.example.com", "/login?referer=/x"):
        async with browser(app, host_of(org)) as client:
            done = await sign_in_with(client, "okta", org.usernames["Manager"], referer=referer)
            assert done.headers["location"] == "/items", referer


async def test_a_wrong_state_is_refused(app, org_factory, provider) -> None:
    org = await okta_org(org_factory, provider)

    def other_state(url: str) -> str:
        parsed = urlparse(url)
        query = {k: v[0] for k, v in parse_qs(parsed.query).items()}
        query["state"] = "not-the-state-we-sent"
        return parsed._replace(query=urlencode(query)).geturl()

    async with browser(app, host_of(org)) as client:
        failed = await sign_in_with(
            client, "okta", org.usernames["Viewer"], change_callback=other_state
        )
        assert "state mismatch" in sso_error(failed)
        assert_error(await client.get("/api/users/me"), 401)
    log = await org.client("Administrator").get(
        "/api/auditlog", params={"action": "sso.login.failed"}
    )
    assert log.json()[0]["detail"]["reason"].startswith("the sign-in could not be verified")


async def test_a_callback_in_another_browser_or_twice_is_refused(
    app, org_factory, provider
) -> None:
    org = await okta_org(org_factory, provider)
    captured: list[str] = []

    def keep(url: str) -> str:
        captured.append(url)
        return url

    async with browser(app, host_of(org)) as client:
        done = await sign_in_with(client, "okta", org.usernames["Viewer"], change_callback=keep)
        assert done.headers["location"] == "/items"
        # The same callback again, with the state cookie put back: the state is used up.
        client.cookies.set("tagtrack_sso_state", parse_qs(urlparse(captured[0]).query)["state"][0])
        again = await client.get(captured[0])
        assert "already used" in sso_error(again)
    # A browser that did not start the sign-in (no state cookie) cannot finish it.
    async with browser(app, host_of(org)) as stranger:
        assert "state mismatch" in sso_error(await stranger.get(captured[0]))


async def test_an_unknown_user_is_refused(app, org_factory, provider) -> None:
    org = await okta_org(org_factory, provider)
    other: Org = await org_factory()
    cases = [
        (f"nobody.{org.subdomain}@example.com", "no user of this organization has the username"),
        # A user of another organization is unknown here too.
        (other.usernames["Administrator"], "no user of this organization"),
        # An email the provider does not vouch for is not enough.
        (f"unverified:{org.usernames['Viewer']}", "the identity provider did not vouch"),
    ]
    for login, message in cases:
        async with browser(app, host_of(org)) as client:
            failed = await sign_in_with(client, "okta", login)
            assert sso_error(failed).startswith(message), login
            assert_error(await client.get("/api/users/me"), 401)


async def test_an_expired_id_token_is_refused(app, org_factory, provider) -> None:
    org = await okta_org(org_factory, provider, tamper="expired")
    async with browser(app, host_of(org)) as client:
        failed = await sign_in_with(client, "okta", org.usernames["Viewer"])
        message = sso_error(failed)
        assert message.startswith("the ID token is not valid"), message
        assert "expired" in message.lower()
        assert_error(await client.get("/api/users/me"), 401)


async def test_a_forged_id_token_is_refused(app, org_factory, provider) -> None:
    org = await okta_org(org_factory, provider, tamper="forged")
    async with browser(app, host_of(org)) as client:
        failed = await sign_in_with(client, "okta", org.usernames["Viewer"])
        assert sso_error(failed).startswith("the ID token is not genuine")
        assert_error(await client.get("/api/users/me"), 401)


async def test_a_provider_error_or_missing_setup_goes_back_to_login(
    app, org_factory, provider
) -> None:
    org: Org = await org_factory()
    async with browser(app, host_of(org)) as client:
        not_set_up = await client.get("/api/auth/okta/redirect")
        assert sso_error(not_set_up) == "Okta sign-in is not set up for this organization"
    await configure_okta(org, provider)
    await enable(org)
    async with browser(app, host_of(org)) as client:
        redirect = await client.get("/api/auth/okta/redirect")
        state = parse_qs(urlparse(redirect.headers["location"]).query)["state"][0]
        denied = await client.get(
            "/api/auth/okta/callback",
            params={"state": state, "error": "access_denied", "error_description": "User said no"},
        )
        assert sso_error(denied) == "the identity provider answered: User said no"
    async with browser(app, "127.0.0.1") as client:
        nowhere = await client.get("/api/auth/okta/redirect")
        assert sso_error(nowhere) == "no organization uses this address"
    async with browser(app, host_of(org)) as client:
        assert_error(await client.get("/api/auth/google/redirect"), 422)


async def test_entra_sign_in_with_the_installations_registration(
    database_url, settings: Settings, org_factory, provider
) -> None:
    org: Org = await org_factory()
    redirect = f"http://{host_of(org)}/api/auth/entra/callback"
    client_id, secret = provider.register("entra", [redirect])
    entra_settings = settings.model_copy(
        update={
            "entra_authority": provider.entra_authority,
            "entra_client_id": client_id,
            "entra_client_secret": secret,
        }
    )
    entra_app = create_app(entra_settings, database_url=database_url)
    async with entra_app.router.lifespan_context(entra_app):
        admin_login = {"username": org.usernames["Administrator"], "password": PASSWORD}
        async with browser(entra_app, host_of(org)) as admin:
            assert (await admin.post("/api/auth/login", json=admin_login)).status_code == 200
            saved = await admin.put("/api/ssosettings", json={"entraTenant": provider.entra_tenant})
            assert saved.json()["entraAvailable"] is True
            assert saved.json()["entraRedirectUri"] == redirect
        await enable(org, okta=False, entra=True)
        async with browser(entra_app, host_of(org)) as client:
            available = await client.get("/api/auth/entra/available")
            assert available.json() == {"available": True, "enabled": True}
            redirect_answer = await client.get("/api/auth/entra/redirect")
            assert redirect_answer.headers["location"].startswith(
                f"{provider.entra_authority}/{provider.entra_tenant}/v2.0/auth?"
            )
            done = await sign_in_with(client, "entra", org.usernames["Operator"])
            assert done.headers["location"] == "/items", done.headers["location"]
            me = await client.get("/api/users/me")
            assert me.json()["username"] == org.usernames["Operator"]
        async with browser(entra_app, host_of(org)) as client:
            unknown = await sign_in_with(client, "entra", f"ghost.{org.subdomain}@example.com")
            assert "no user of this organization" in sso_error(unknown)


# --- password sign-in on a subdomain -----------------------------------------------------------


async def test_a_subdomain_signs_in_only_its_own_users(app, org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    theirs = {"username": other.usernames["Viewer"], "password": PASSWORD}
    ours = {"username": org.usernames["Viewer"], "password": PASSWORD}
    async with browser(app, host_of(org)) as client:
        refused = await client.post("/api/auth/login", json=theirs)
        assert_error(refused, 401, "invalid credentials", "Invalid username or password")
        assert (await client.post("/api/auth/login", json=ours)).status_code == 200
    async with browser(app, host_of(other)) as client:
        assert (await client.post("/api/auth/login", json=theirs)).status_code == 200
    # The main address (no organization's subdomain) signs in anyone.
    async with browser(app, "tagtrack.test") as client:
        assert (await client.post("/api/auth/login", json=theirs)).status_code == 200


async def test_odd_callbacks_go_back_to_login(app, org_factory, provider) -> None:
    org = await okta_org(org_factory, provider)
    async with browser(app, host_of(org)) as client:
        client.cookies.set("tagtrack_sso_state", "plain-state")
        for params in ({"state": "état", "code": "x"}, {"code": "x"}, {}):
            response = await client.get("/api/auth/okta/callback", params=params)
            assert "state mismatch" in sso_error(response), params
