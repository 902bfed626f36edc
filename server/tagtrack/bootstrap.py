"""First start on an empty database: one organization and a super admin."""

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.roles import RoleRepository
from tagtrack.access.rules import SUPER_ADMIN
from tagtrack.core.config import Settings
from tagtrack.core.security import hash_password, password_problem, random_password
from tagtrack.kit.wiring import Wiring
from tagtrack.models import User
from tagtrack.organizations.repository import OrganizationRepository
from tagtrack.organizations.service import OrganizationService
from tagtrack.users.repository import UserRepository

DEFAULT_ADMIN_EMAIL = "admin@tagtrack.example.com"
# Processes started together on an empty database: one creates, the others then find it.
FIRST_START_LOCK = 7_345_002


@dataclass(frozen=True)
class FirstStart:
    org_id: str
    username: str
    password: str
    generated: bool


async def create_super_admin(
    session: AsyncSession, org_id: str, name: str, username: str, password: str
) -> User:
    problem = password_problem(password, [name, username])
    if problem:
        raise ValueError(problem)
    roles = {r.name: r.id for r in await RoleRepository(session).list_for_org(org_id)}
    return await UserRepository(session).add(
        User(
            org_id=org_id,
            name=name,
            username=username,
            password_hash=hash_password(password),
            role_ids=[roles[SUPER_ADMIN]],
            site_ids=[],
        )
    )


async def ensure_first_start(
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    org_name: str = "TagTrack",
    subdomain: str = "tagtrack",
) -> FirstStart | None:
    """Create the first organization and super admin; None when they already exist."""
    async with sessionmaker() as session, session.begin():
        await session.execute(select(func.pg_advisory_xact_lock(FIRST_START_LOCK)))
        if await OrganizationRepository(session).any_exist():
            return None
        org = (
            await Wiring(session).get(OrganizationService).create_organization(org_name, subdomain)
        )
        username = settings.admin_email or DEFAULT_ADMIN_EMAIL
        password = settings.admin_password or random_password()
        await create_super_admin(session, org.id, "Administrator", username, password)
        return FirstStart(org.id, username, password, generated=not settings.admin_password)
