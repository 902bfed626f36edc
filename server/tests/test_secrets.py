"""Secrets: a signing secret per installation, the SSO client secret sealed at rest, and no
password, token or secret in the logs or the audit log."""

import logging

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.db import sync_url
from tagtrack.core.migrate import upgrade
from tagtrack.core.sealing import SEALED_PREFIX, unseal
from tests.conftest import PASSWORD, Org
from tests.database import fresh_database
from tests.test_apikeys import create_key
from tests.test_auth import NEW_PASSWORD, login

OKTA_SECRET = "okta-client-secret-Zq81x"


def _psycopg_url(url: str) -> str:
    return sync_url(url).replace("postgresql+psycopg://", "postgresql://")


def _signing_secret(url: str) -> str:
    with psycopg.connect(_psycopg_url(url)) as db:
        row = db.execute("SELECT value FROM install_secrets WHERE name = 'signing'").fetchone()
        assert row is not None
        return str(row[0])


def test_every_installation_gets_its_own_random_signing_secret() -> None:
    secrets = []
    for _ in range(2):
        with fresh_database() as url:
            upgrade(url)
            secrets.append(_signing_secret(url))
    first, second = secrets
    assert first != second
    assert len(first) >= 32 and len(second) >= 32


def test_the_migration_seals_a_secret_stored_in_the_clear() -> None:
    with fresh_database() as url:
        upgrade(url, "0005")
        with psycopg.connect(_psycopg_url(url)) as db:
            db.execute(
                "INSERT INTO organizations (id, name, subdomain, okta_enabled, entra_enabled,"
                " time_created, time_modified) VALUES ('aaaaaaaaaaaaaaaaaaaaaaaa', 'Old', 'old',"
                " true, false, now(), now())"
            )
            db.execute(
                "INSERT INTO sso_settings (org_id, okta_issuer, okta_client_id,"
                " okta_client_secret, entra_tenant, time_modified) VALUES"
                " ('aaaaaaaaaaaaaaaaaaaaaaaa', 'https://old.okta.com', 'id', %s, '', now())",
                (OKTA_SECRET,),
            )
        upgrade(url)
        with psycopg.connect(_psycopg_url(url)) as db:
            row = db.execute("SELECT okta_client_secret FROM sso_settings").fetchone()
        assert row is not None
        stored = str(row[0])
        assert stored.startswith(SEALED_PREFIX) and OKTA_SECRET not in stored
        assert unseal(_signing_secret(url), stored) == OKTA_SECRET


async def test_the_okta_client_secret_is_stored_sealed(
    app, org_factory, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    org: Org = await org_factory()
    body = {
        "oktaIssuer": "https://acme.okta.com",
        "oktaClientId": "0oa1client",
        "oktaClientSecret": OKTA_SECRET,
    }
    saved = await org.client("Administrator").put("/api/ssosettings", json=body)
    assert saved.status_code == 200 and OKTA_SECRET not in saved.text
    async with sessionmaker() as session:
        stored = (
            await session.execute(
                text("SELECT okta_client_secret FROM sso_settings WHERE org_id = :org"),
                {"org": org.id},
            )
        ).scalar_one()
    assert stored.startswith(SEALED_PREFIX) and OKTA_SECRET not in stored
    assert unseal(app.state.settings.secret_key, stored) == OKTA_SECRET
    # Under another installation's secret it opens to nothing.
    assert unseal("another installation", stored) == ""


async def test_no_password_token_or_secret_reaches_the_logs_or_the_audit_log(
    app, org_factory, anonymous, sessionmaker, caplog: pytest.LogCaptureFixture
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    caplog.set_level(logging.DEBUG)
    await login(anonymous, org.usernames["Viewer"], PASSWORD)
    await login(anonymous, org.usernames["Viewer"], "Wrong-" + PASSWORD)
    await login(anonymous, "unknown@example.com", "Unknown-" + PASSWORD)
    key = await create_key(org)
    await admin.put(
        "/api/ssosettings",
        json={
            "oktaIssuer": "https://a.okta.com",
            "oktaClientId": "c",
            "oktaClientSecret": OKTA_SECRET,
        },
    )
    created = await admin.post(
        "/api/users",
        json={
            "name": "Logged",
            "username": f"logged.{org.subdomain}@example.com",
            "roles": [org.role_ids["Viewer"]],
            "password": NEW_PASSWORD,
            "securityCtx": {"sites": [org.site_ids[0]]},
        },
    )
    assert created.status_code == 201, created.text
    async with sessionmaker() as session:
        audit = " ".join(
            str(row)
            for row in (
                await session.execute(
                    text("SELECT * FROM audit_log WHERE org_id = :org"), {"org": org.id}
                )
            ).all()
        )
    assert "login.failed" in audit and "apikey" in audit.lower()
    assert "/api/auth/login" in caplog.text  # the logs were captured
    secrets = [
        PASSWORD,
        "Wrong-" + PASSWORD,
        "Unknown-" + PASSWORD,
        NEW_PASSWORD,
        key["token"],
        OKTA_SECRET,
    ]
    session_cookie = anonymous.cookies.get("tagtrack_session")
    assert session_cookie
    for secret in [*secrets, session_cookie]:
        assert secret not in caplog.text, secret
        assert secret not in audit, secret
