"""Demo data: realistic sites, users of every role and settings, created once."""

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.ids import ALL_SITES_ID
from tagtrack.core.security import hash_password, random_password
from tagtrack.models import Organization, Site, SiteSettings, User
from tagtrack.roles.repository import RoleRepository
from tagtrack.roles.rules import ADMINISTRATOR, MANAGER, OPERATOR, VIEWER
from tagtrack.settings.repository import SettingsRepository

SITES: tuple[dict[str, Any], ...] = (
    {
        "name": "Rotterdam Distribution Centre",
        "description": "Main European hub: inbound docks 1-12, high-bay racking, returns hall",
        "address_line1": "Waalhaven Oostzijde 81",
        "city": "Rotterdam",
        "state": "Zuid-Holland",
        "country": "Netherlands",
        "zipcode": "3087 BM",
        "timezone": "Europe/Amsterdam",
        "report_daily_time": "06:00",
        "report_emails": ["ops.rotterdam@northwind.example.com"],
        "start": datetime(2021, 3, 1, tzinfo=UTC),
    },
    {
        "name": "Leeds Fulfilment Centre",
        "description": "E-commerce picking and packing, two mezzanines",
        "address_line1": "Unit 4, Thorpe Park",
        "address_line2": "Century Way",
        "city": "Leeds",
        "state": "West Yorkshire",
        "country": "United Kingdom",
        "zipcode": "LS15 8ZB",
        "timezone": "Europe/London",
        "report_daily_time": "05:30",
        "report_emails": ["leeds.shift@northwind.example.com"],
        "start": datetime(2022, 9, 12, tzinfo=UTC),
    },
    {
        "name": "Chicago Cross-Dock",
        "description": "Cross-docking for Midwest retail, 40 doors",
        "address_line1": "4800 W 47th St",
        "city": "Chicago",
        "state": "IL",
        "country": "United States",
        "zipcode": "60632",
        "timezone": "America/Chicago",
        "report_daily_time": "07:00",
        "report_emails": [],
        "start": datetime(2023, 5, 22, tzinfo=UTC),
    },
)

# (name, username, role, site names or None for all sites)
USERS = (
    ("Priya Raman", "priya.raman@northwind.example.com", ADMINISTRATOR, None),
    ("Marcus Webb", "marcus.webb@northwind.example.com", MANAGER, (0, 1)),
    ("Sofia Lindqvist", "sofia.lindqvist@northwind.example.com", OPERATOR, (0,)),
    ("Tom Okafor", "tom.okafor@northwind.example.com", VIEWER, (2,)),
)

DEMO_MARKER_SITE = SITES[0]["name"]


@dataclass(frozen=True)
class DemoUsers:
    password: str
    usernames: list[str]


async def seed_demo(
    sessionmaker: async_sessionmaker[AsyncSession], password: str | None = None
) -> DemoUsers | None:
    """Seed the demo organisation's sites and users; None when already seeded."""
    async with sessionmaker() as session, session.begin():
        org = (
            await session.execute(select(Organization).order_by(Organization.time_created).limit(1))
        ).scalar_one()
        exists = await session.execute(
            select(Site.id).where(Site.org_id == org.id, Site.name == DEMO_MARKER_SITE)
        )
        if exists.first():
            return None
        if org.subdomain == "tagtrack":
            org.name = "Northwind Logistics"
            org.subdomain = "northwind"
        sites: list[Site] = []
        for spec in SITES:
            site = Site(
                org_id=org.id,
                name=spec["name"],
                description=spec["description"],
                start_date=spec["start"],
                address_line1=spec["address_line1"],
                address_line2=spec.get("address_line2", ""),
                city=spec["city"],
                state=spec["state"],
                country=spec["country"],
                zipcode=spec["zipcode"],
                timezone=spec["timezone"],
                report_daily_time=spec["report_daily_time"],
                report_emails=list(spec["report_emails"]),
            )
            session.add(site)
            sites.append(site)
        await session.flush()
        for site in sites:
            session.add(SiteSettings(site_id=site.id, org_id=org.id, settings={}))
        await SettingsRepository(session).save_org_settings(
            org.id,
            {
                "itemLabel": "Assets",
                "workerLabel": "Staff",
                "itemNameLabel": "",
                "itemSerialLabel": "Serial No.",
                "hideWorkers": False,
            },
        )
        roles = {r.name: r.id for r in await RoleRepository(session).list_for_org(org.id)}
        shared_password = password or random_password()
        hashed = hash_password(shared_password)
        for name, username, role, site_indexes in USERS:
            session.add(
                User(
                    org_id=org.id,
                    name=name,
                    username=username,
                    password_hash=hashed,
                    role_ids=[roles[role]],
                    site_ids=[ALL_SITES_ID]
                    if site_indexes is None
                    else [sites[i].id for i in site_indexes],
                )
            )
        await session.flush()
        return DemoUsers(shared_password, [u[1] for u in USERS])
