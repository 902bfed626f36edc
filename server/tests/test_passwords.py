"""Password reset by mailed link, delivered through a real SMTP server."""

import asyncio
import base64
import json
import re
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.kit.wiring import Wiring
from tagtrack.mail.sender import OutboxSender
from tagtrack.main import create_app
from tagtrack.models import User
from tagtrack.models.base import utcnow
from tagtrack.models.ids import ALL_SITES_ID
from tagtrack.organizations.service import OrganizationService
from tagtrack.passwords.service import reset_token
from tests.conftest import FAST_HASH, PASSWORD, Org, make_client
from tests.database import fresh_database
from tests.mailbox import Mailbox, smtp_server

NEW_PASSWORD = "Fresh-Harbour-Lantern-77"


@pytest.fixture(scope="module")
def mailbox_url() -> Iterator[tuple[Mailbox, str]]:
    with smtp_server() as served:
        yield served


@pytest.fixture(scope="module")
async def mail_app(
    database_url: str, settings: Settings, mailbox_url: tuple[Mailbox, str]
) -> AsyncIterator[object]:
    update = {
        "smtp_url": mailbox_url[1],
        "public_url": "https://track.example.com",
        "mail_sender": True,
    }
    application = create_app(settings.model_copy(update=update), database_url=database_url)
    async with application.router.lifespan_context(application):
        yield application


def _payload(token: str) -> dict[str, object]:
    part = token.split(".")[0]
    return dict(json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))))


async def _token(mailbox: Mailbox, address: str) -> str:
    messages = await mailbox.arrived(address)
    body = messages[-1].get_payload(decode=True).decode()  # type: ignore[union-attr]
    found = re.search(r"https://track\.example\.com/passwordreset/form\?token=(\S+)", body)
    assert found, body
    return found.group(1)


async def test_forgot_password_mails_a_link_that_sets_the_password_and_unlocks(
    org_factory, mail_app, mailbox_url
) -> None:
    mailbox, _ = mailbox_url
    org: Org = await org_factory()
    username = org.usernames["Operator"]
    async with make_client(mail_app, "198.51.100.7") as client:
        for _ in range(5):
            await client.post("/api/auth/login", json={"username": username, "password": "nope"})
        locked = await client.post(
            "/api/auth/login", json={"username": username, "password": PASSWORD}
        )
        assert locked.json()["reason"] == "account locked"

        asked = await client.post("/api/auth/passwordresetrequest", params={"email": username})
        assert asked.status_code == 204
        token = await _token(mailbox, username)
        # The token carries the username (the reset page shows it) and its expiry.
        assert _payload(token)["username"] == username

        weak = await client.post(
            "/api/auth/passwordreset", json={"token": token, "password": "abc"}
        )
        assert weak.status_code == 401
        assert weak.json()["reason"] == "password too weak"

        done = await client.post(
            "/api/auth/passwordreset", json={"token": token, "password": NEW_PASSWORD}
        )
        assert done.status_code == 204
        again = await client.post(
            "/api/auth/passwordreset", json={"token": token, "password": NEW_PASSWORD}
        )
        assert again.status_code == 401
        assert again.json()["reason"] == "invalid token"

        old = await client.post(
            "/api/auth/login", json={"username": username, "password": PASSWORD}
        )
        assert old.status_code == 401
        fresh = await client.post(
            "/api/auth/login", json={"username": username, "password": NEW_PASSWORD}
        )
        assert fresh.status_code == 200
    # The reset ended the sessions the user had.
    assert (await org.client("Operator").get("/api/users/me")).status_code == 401


async def test_reset_request_never_reveals_whether_an_account_exists(mail_app, mailbox_url) -> None:
    mailbox, _ = mailbox_url
    async with make_client(mail_app) as client:
        before = len(mailbox.messages)
        unknown = await client.post(
            "/api/auth/passwordresetrequest", params={"email": "nobody@example.com"}
        )
        assert unknown.status_code == 204
        assert len(mailbox.messages) == before
        invalid = await client.post("/api/auth/passwordresetrequest", params={"email": "not-mail"})
        assert invalid.status_code == 422
        assert invalid.json()["reason"] == "validation"
        forged = await client.post(
            "/api/auth/passwordreset",
            json={
                "token": reset_token("nobody@example.com", "guessed", utcnow() + timedelta(1)),
                "password": NEW_PASSWORD,
            },
        )
        assert forged.status_code == 401
        assert forged.json()["reason"] == "invalid token"


async def test_admin_sends_a_reset_link_within_the_organization_only(
    org_factory, mail_app, mailbox_url
) -> None:
    mailbox, _ = mailbox_url
    org: Org = await org_factory()
    other: Org = await org_factory()
    async with make_client(mail_app) as admin:
        login = {"username": org.usernames["Administrator"], "password": PASSWORD}
        assert (await admin.post("/api/auth/login", json=login)).status_code == 200
        users = (await admin.get("/api/users", params={"search": "viewer"})).json()
        viewer_id = users[0]["id"]
        sent = await admin.put(f"/api/users/{viewer_id}")
        assert sent.status_code == 204
        assert await _token(mailbox, org.usernames["Viewer"])

        foreign = (await other.client("Administrator").get("/api/users")).json()[0]["id"]
        assert (await admin.put(f"/api/users/{foreign}")).status_code == 404
    viewer: httpx.AsyncClient = org.client("Viewer")
    assert (await viewer.put(f"/api/users/{viewer_id}")).status_code == 403


async def test_without_smtp_the_mail_is_written_to_the_data_dir(
    settings: Settings, tmp_path: Path
) -> None:
    # A database and server of its own: the mail can only be this test's to deliver.
    own = settings.model_copy(update={"data_dir": tmp_path})
    with fresh_database() as url:
        upgrade(url)
        application = create_app(own, database_url=url)
        async with application.router.lifespan_context(application):
            maker = application.state.sessionmaker
            async with maker() as session, session.begin():
                organizations = Wiring(session).get(OrganizationService)
                org = await organizations.create_organization("Quiet Depot", "quietdepot")
                session.add(
                    User(
                        org_id=org.id,
                        name="Pat",
                        username="pat@quietdepot.example.com",
                        password_hash=FAST_HASH,
                        site_ids=[ALL_SITES_ID],
                    )
                )
            async with make_client(application) as client:
                asked = await client.post(
                    "/api/auth/passwordresetrequest",
                    params={"email": "pat@quietdepot.example.com"},
                )
            assert asked.status_code == 204
            assert await OutboxSender(maker, own).deliver_due(org.id) == 1
    written = [mail.read_text() for mail in (tmp_path / "mail").glob("*.eml")]
    assert len(written) == 1
    assert "pat@quietdepot.example.com" in written[0]
    assert "/passwordreset/form?token=" in written[0]


async def test_a_user_created_with_an_activation_email_chooses_a_password_by_link(
    org_factory, mail_app, mailbox_url
) -> None:
    mailbox, _ = mailbox_url
    org: Org = await org_factory()
    username = f"new.hire.{org.subdomain}@example.com"
    async with make_client(mail_app) as admin:
        login = {"username": org.usernames["Administrator"], "password": PASSWORD}
        assert (await admin.post("/api/auth/login", json=login)).status_code == 200
        body = {"name": "New Hire", "username": username, "roles": [org.role_ids["Viewer"]]}
        created = await admin.post("/api/users", params={"email": "true"}, json=body)
        assert created.status_code == 201, created.text
    mail = (await mailbox.arrived(username))[-1]
    assert "created a TagTrack account for you" in mail.get_payload(decode=True).decode()  # type: ignore[union-attr]
    token = await _token(mailbox, username)
    async with make_client(mail_app, "198.51.100.20") as newcomer:
        # No password works before the link is used.
        empty = await newcomer.post("/api/auth/login", json={"username": username, "password": "x"})
        assert empty.status_code == 401
        chosen = await newcomer.post(
            "/api/auth/passwordreset", json={"token": token, "password": NEW_PASSWORD}
        )
        assert chosen.status_code == 204
        signed_in = await newcomer.post(
            "/api/auth/login", json={"username": username, "password": NEW_PASSWORD}
        )
        assert signed_in.status_code == 200
        assert signed_in.json()["name"] == "New Hire"


async def test_the_link_comes_from_the_public_url_never_the_host_header(
    org_factory, mail_app, mailbox_url
) -> None:
    mailbox, _ = mailbox_url
    org: Org = await org_factory()
    username = org.usernames["Viewer"]
    async with make_client(mail_app) as client:
        asked = await client.post(
            "/api/auth/passwordresetrequest",
            params={"email": username},
            headers={"Host": "evil.example.net", "X-Forwarded-Host": "evil.example.net"},
        )
    assert asked.status_code == 204
    body = (await mailbox.arrived(username))[-1].get_payload(decode=True).decode()  # type: ignore[union-attr]
    assert "https://track.example.com/passwordreset/form?token=" in body
    assert "evil.example.net" not in body


async def test_known_and_unknown_emails_get_the_same_answer(
    org_factory, mail_app, mailbox_url
) -> None:
    mailbox, _ = mailbox_url
    org: Org = await org_factory()
    before = len(mailbox.messages)
    async with make_client(mail_app) as client:
        known = await client.post(
            "/api/auth/passwordresetrequest", params={"email": org.usernames["Manager"]}
        )
        unknown = await client.post(
            "/api/auth/passwordresetrequest", params={"email": f"ghost.{org.subdomain}@example.com"}
        )
    assert (
        (known.status_code, known.content) == (unknown.status_code, unknown.content) == (204, b"")
    )
    skip = {"date", "x-request-id"}
    assert {k: v for k, v in known.headers.items() if k not in skip} == {
        k: v for k, v in unknown.headers.items() if k not in skip
    }
    await mailbox.arrived(org.usernames["Manager"])
    await asyncio.sleep(0.3)  # time enough for a second mail, if one were sent
    assert len(mailbox.messages) == before + 1


async def test_an_expired_token_is_refused(
    org_factory, mail_app, mailbox_url, sessionmaker
) -> None:
    mailbox, _ = mailbox_url
    org: Org = await org_factory()
    username = org.usernames["Operator"]
    async with make_client(mail_app) as client:
        await client.post("/api/auth/passwordresetrequest", params={"email": username})
        token = await _token(mailbox, username)
        # The token's own expiry is 24 hours ahead...
        assert 23 * 3600 < int(str(_payload(token)["exp"])) - utcnow().timestamp() <= 24 * 3600
        async with sessionmaker() as session, session.begin():
            await session.execute(
                text(
                    "UPDATE password_resets SET expires_at = now() - interval '1 second' "
                    "WHERE user_id = (SELECT id FROM users WHERE username = :u)"
                ),
                {"u": username},
            )
        # ...but the stored one has passed.
        late = await client.post(
            "/api/auth/passwordreset", json={"token": token, "password": NEW_PASSWORD}
        )
        assert late.status_code == 401
        assert late.json()["reason"] == "invalid token"
        # A payload rewritten to a later expiry breaks the signature.
        _, random, signature = token.split(".")
        body = {"username": username, "exp": int(utcnow().timestamp()) + 10**6}
        forged_payload = base64.urlsafe_b64encode(json.dumps(body).encode()).decode().rstrip("=")
        stretched = f"{forged_payload}.{random}.{signature}"
        refused = await client.post(
            "/api/auth/passwordreset", json={"token": stretched, "password": NEW_PASSWORD}
        )
        assert refused.json()["reason"] == "invalid token"


async def test_tokens_are_signed_with_this_installations_secret(
    org_factory, database_url, settings, mail_app, mailbox_url
) -> None:
    mailbox, _ = mailbox_url
    org: Org = await org_factory()
    username = org.usernames["Operator"]
    async with make_client(mail_app) as client:
        await client.post("/api/auth/passwordresetrequest", params={"email": username})
    token = await _token(mailbox, username)
    payload, random, signature = token.split(".")
    async with make_client(mail_app) as client:
        tampered = f"{payload}.{random}.{signature[:-2]}AA"
        response = await client.post(
            "/api/auth/passwordreset", json={"token": tampered, "password": NEW_PASSWORD}
        )
        assert response.json()["reason"] == "invalid token"
    # Another installation (another secret) on the same data refuses the genuine token.
    other = create_app(
        settings.model_copy(update={"secret_key": "another-installation"}),
        database_url=database_url,
    )
    async with other.router.lifespan_context(other), make_client(other) as client:
        response = await client.post(
            "/api/auth/passwordreset", json={"token": token, "password": NEW_PASSWORD}
        )
        assert response.json()["reason"] == "invalid token"
    async with make_client(mail_app) as client:
        response = await client.post(
            "/api/auth/passwordreset", json={"token": token, "password": NEW_PASSWORD}
        )
        assert response.status_code == 204


async def test_the_installation_secret_is_made_once_by_the_migrations(sessionmaker, app) -> None:
    async with sessionmaker() as session:
        stored = (
            await session.execute(text("SELECT value FROM install_secrets WHERE name = 'signing'"))
        ).scalar_one()
    assert len(stored) >= 32
    assert app.state.settings.secret_key == stored
