from datetime import timedelta

from sqlalchemy import func, select

from tagtrack.core.housekeeping import prune_once
from tagtrack.models import LoginFailure, UserSession
from tagtrack.models.base import utcnow
from tests.conftest import Org


async def test_prune_removes_expired_sessions_and_old_failures(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    viewer = org.client("Viewer")
    now = utcnow()
    async with sessionmaker() as session, session.begin():
        user_id = (
            await session.execute(
                select(UserSession.user_id).where(UserSession.org_id == org.id).limit(1)
            )
        ).scalar_one()
        session.add(
            UserSession(
                token_hash="e" * 64, user_id=user_id, org_id=org.id, expires_at=now - timedelta(1)
            )
        )
        session.add(LoginFailure(client="203.0.113.9", time=now - timedelta(hours=2)))
        session.add(LoginFailure(client="203.0.113.9", time=now))

    await prune_once(sessionmaker)

    async with sessionmaker() as session:
        expired = await session.execute(
            select(func.count()).where(UserSession.token_hash == "e" * 64)
        )
        assert expired.scalar_one() == 0
        failures = await session.execute(
            select(func.count()).where(LoginFailure.client == "203.0.113.9")
        )
        assert failures.scalar_one() == 1
    # Live sessions survive.
    assert (await viewer.get("/api/users/me")).status_code == 200
