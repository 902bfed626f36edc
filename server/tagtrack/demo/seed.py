"""Demo data: realistic sites, users of every role, settings and a tracking floor per site
(zones with gates, readers, shelves, items and workers), created once."""

import random
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.roles import RoleRepository
from tagtrack.access.rules import ADMINISTRATOR, MANAGER, OPERATOR, VIEWER
from tagtrack.core.security import hash_password, random_password
from tagtrack.demo.floorplan import DOORS, HANDHELD_SPOT, PLAN_NAME, SPOTS
from tagtrack.models import (
    Endpoint,
    EndpointStatus,
    LocationTag,
    Map,
    Organization,
    OrgKey,
    ReportConfig,
    Site,
    SiteSettings,
    Thing,
    ThingTag,
    User,
    Zone,
    ZoneGate,
)
from tagtrack.models.base import utcnow
from tagtrack.models.ids import ALL_SITES_ID, new_id
from tagtrack.models.org_key import org_keys_of
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
        "report_emails": ["chicago.ops@northwind.example.com"],
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


# Tracking floor of every demo site: zones with gates, readers, shelves, items and workers.
# (zone name, description, alert minutes, kill hours, kill mode)
ZONES = (
    ("Receiving", "Inbound docks: goods wait here for put-away", 240, 0.0, "zone"),
    ("Warehouse A", "High-bay racking, aisles 1-8", 0, 72.0, "zone"),
    ("Workshop", "Maintenance and repair benches", 480, 24.0, "zone"),
    ("Shipping", "Outbound staging lanes", 120, 12.0, "zone"),
    ("Yard", "Trailer yard and gatehouse", 0, 48.0, "site"),
)
# (reader, model, zone): each fixed reader has an IN antenna (0) and an OUT antenna (1).
FIXED_READERS = (
    ("Receiving Dock Portal", "Zebra FX9600", "Receiving"),
    ("Warehouse A Portal", "Impinj R700", "Warehouse A"),
    ("Workshop Door", "Impinj R700", "Workshop"),
    ("Shipping Dock Portal", "Zebra FX9600", "Shipping"),
    ("Yard Gatehouse", "Impinj Speedway R420", "Yard"),
)
HANDHELD = ("Handheld RFD40", "Zebra RFD40")
# (shelf, zone)
SHELVES = (
    *((f"Aisle {a} Shelf {s}", "Warehouse A") for a in range(1, 5) for s in "AB"),
    ("Workbench 1", "Workshop"),
    ("Workbench 2", "Workshop"),
    ("Staging Lane 1", "Shipping"),
)
# (name, serial prefix, category, how many per site)
ASSETS = (
    ("Pallet Jack", "PJ", "Material Handling", 30),
    ("Electric Forklift", "FL", "Vehicles", 12),
    ("Reach Truck", "RT", "Vehicles", 6),
    ("Roll Cage", "RC", "Containers", 60),
    ("Returnable Tote", "TT", "Containers", 70),
    ("Handheld Scanner", "HS", "IT Equipment", 24),
    ("Label Printer", "LP", "IT Equipment", 10),
    ("Rugged Tablet", "TB", "IT Equipment", 16),
    ("Cordless Drill", "CD", "Tools", 14),
    ("Torque Wrench", "TW", "Tools", 10),
    ("Safety Harness", "SH", "Safety", 18),
    ("Step Ladder", "SL", "Safety", 12),
    ("Fire Extinguisher", "FE", "Safety", 20),
    ("Two-Way Radio", "TR", "IT Equipment", 18),
)
FIRST_NAMES = (
    "Aisha", "Ben", "Carla", "Dmitri", "Elena", "Femi", "Grace", "Hiro", "Ines", "Jonas",
    "Kemal", "Lena", "Mateo", "Nadia", "Oskar", "Paula", "Quinn", "Rosa", "Sami", "Tara",
)  # fmt: skip
LAST_NAMES = (
    "Novak", "Okoye", "Jansen", "Murphy", "Rossi", "Kowalski", "Haddad", "Berg", "Silva",
    "Tanaka", "Dubois", "Ahmed", "Larsen", "Moreau", "Fischer", "Costa", "Reyes", "Walsh",
    "Nguyen", "Petrov",
)  # fmt: skip
ROLES_AT_WORK = ("Picker", "Forklift Driver", "Team Lead", "Technician", "Loader")
# (name, type, emailed, zones, categories, headings) of every demo site's report configurations.
REPORTS: tuple[tuple[str, str, bool, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("Vehicles on the move", "reportTypeSeen", True, ("Receiving", "Shipping", "Yard"),
     ("Vehicles", "Material Handling"), ("Name", "Serial", "Zone", "Last Seen", "Events")),
    ("Tools not seen in the workshop", "reportTypeNotSeen", False, ("Workshop",),
     ("Tools",), ()),
    ("Equipment by zone", "reportTypeCategories", False, (), (), ()),
)  # fmt: skip


def _epc(rng: random.Random, prefix: str, site: int, n: int) -> str:
    """A 24-hex EPC, unique by site and number: prefix, site, number, then random hex."""
    return f"{prefix}{site:02X}{n:06X}{rng.getrandbits(32):08X}"


def _last_seen(
    rng: random.Random, plan_id: str, shelves: list[tuple[str, list[float]]], now: datetime
) -> dict[str, Any]:
    """Where a handheld last read a thing: at a shelf of the plan, or not yet (a third)."""
    if rng.random() < 0.33:
        return {"map_id": "", "xy": [0.0, 0.0], "location_tag_id": None, "last_event": None}
    shelf_id, spot = rng.choice(shelves)
    return {
        "map_id": plan_id,
        "xy": list(spot),
        "location_tag_id": shelf_id,
        "last_event": now - timedelta(minutes=rng.randint(5, 600)),
    }


async def _seed_tracking(session: AsyncSession, org_id: str, sites: list[Site]) -> None:
    now = utcnow()
    map_rows: list[dict[str, Any]] = []
    zone_rows: list[dict[str, Any]] = []
    endpoint_rows: list[dict[str, Any]] = []
    gate_rows: list[dict[str, Any]] = []
    status_rows: list[dict[str, Any]] = []
    shelf_rows: list[dict[str, Any]] = []
    thing_rows: list[dict[str, Any]] = []
    tag_rows: list[dict[str, Any]] = []
    report_rows: list[dict[str, Any]] = []
    for index, site in enumerate(sites):
        rng = random.Random(index)
        code = site.city[:3].upper()
        plan_id = new_id()
        # The plan is 1600 x 1000 pixels: its longer side spans 1000 map units.
        map_rows.append(
            {
                "id": plan_id,
                "org_id": org_id,
                "site_id": site.id,
                "name": PLAN_NAME,
                "top_left": [0.0, 625.0],
                "bot_right": [1000.0, 0.0],
            }
        )
        zones: dict[str, str] = {}
        for name, description, alert_minutes, kill_hours, kill_mode in ZONES:
            zones[name] = new_id()
            zone_rows.append(
                {
                    "id": zones[name],
                    "org_id": org_id,
                    "site_id": site.id,
                    "name": name,
                    "description": description,
                    "duration": alert_minutes * 60 * 10**9,
                    "emails": list(site.report_emails),
                    "kill_duration": kill_hours,
                    "immediate_kill": False,
                    "kill_mode": kill_mode,
                }
            )
        for name, kind, emailed, in_zones, categories, headings in REPORTS:
            report_rows.append(
                {
                    "org_id": org_id,
                    "site_id": site.id,
                    "name": name,
                    "type": kind,
                    "format": "excel",
                    "email": emailed,
                    "zones": [zones[zone] for zone in in_zones],
                    "categories": list(categories),
                    "headings": list(headings),
                }
            )
        readers = [(name, model, zone) for name, model, zone in FIXED_READERS]
        for n, (name, model, zone) in enumerate([*readers, (*HANDHELD, None)]):
            endpoint_id = new_id()
            handheld = zone is None
            endpoint_rows.append(
                {
                    "id": endpoint_id,
                    "org_id": org_id,
                    "site_id": site.id,
                    "name": f"{code} {name}",
                    "uuid": f"{model.split()[-1]}-{code}-{n + 1:03d}",
                    "description": model,
                    "map_id": plan_id,
                    "xy": list(HANDHELD_SPOT if zone is None else DOORS[zone][0]),
                    "key": secrets.token_urlsafe(32),
                    "auto_enroll": handheld,
                    # Antenna 0 reads inside the door (IN), antenna 1 outside it (OUT).
                    "antennas": []
                    if zone is None
                    else [
                        {"map": plan_id, "xycoordinates": list(DOORS[zone][1])},
                        {"map": plan_id, "xycoordinates": list(DOORS[zone][2])},
                    ],
                    "config": {} if handheld else {"power": 30.0, "session": 1},
                }
            )
            if zone is not None:
                for antenna, direction in ((0, "IN"), (1, "OUT")):
                    gate_rows.append(
                        {
                            "org_id": org_id,
                            "zone_id": zones[zone],
                            "endpoint_id": endpoint_id,
                            "direction": direction,
                            "antenna": antenna,
                            "position": antenna,
                        }
                    )
            # A few hours of hourly heartbeats, so the status history is not empty.
            for hours in range(6, 0, -1):
                status_rows.append(
                    {
                        "org_id": org_id,
                        "endpoint_id": endpoint_id,
                        "time": now - timedelta(hours=hours, minutes=rng.randint(0, 5)),
                        "uptime": 864_000 - hours * 3600,
                        "reader_temp": round(rng.uniform(33, 46), 1),
                        "ip": f"10.{20 + index}.0.{10 + n}",
                        "version": "3.21.4" if "Zebra" in model else "8.2.1",
                    }
                )
        shelves: list[tuple[str, list[float]]] = []
        for n, (shelf, zone) in enumerate(SHELVES):
            shelf_id = new_id()
            shelves.append((shelf_id, SPOTS[shelf]))
            shelf_rows.append(
                {
                    "id": shelf_id,
                    "org_id": org_id,
                    "site_id": site.id,
                    "name": shelf,
                    "tag": f"LOC{code}{n + 1:04d}",
                    "zone_id": zones[zone],
                    "map_id": plan_id,
                    "xy": list(SPOTS[shelf]),
                }
            )

        count = 0
        for name, prefix, category, how_many in ASSETS:
            for k in range(1, how_many + 1):
                count += 1
                thing_id, tag = new_id(), _epc(rng, "E2801160", index, count)
                thing_rows.append(
                    {
                        "id": thing_id,
                        "org_id": org_id,
                        "site_id": site.id,
                        "thing_class": "item",
                        "name": f"{name} {prefix}-{k:03d}",
                        "description": f"{category}, {site.city}",
                        "serial": f"{prefix}-{code}-{rng.randint(100000, 999999)}",
                        "tag1": tag,
                        "categories": [category],
                        **_last_seen(rng, plan_id, shelves, now),
                    }
                )
                tag_rows.append({"org_id": org_id, "tag": tag, "thing_id": thing_id})
        for k in range(20):
            count += 1
            thing_id, tag = new_id(), _epc(rng, "E2003412", index, count)
            first, last = FIRST_NAMES[(k + 3 * index) % 20], LAST_NAMES[(k * 7 + index) % 20]
            thing_rows.append(
                {
                    "id": thing_id,
                    "org_id": org_id,
                    "site_id": site.id,
                    "thing_class": "worker",
                    "name": f"{first} {last}",
                    "description": ROLES_AT_WORK[k % len(ROLES_AT_WORK)],
                    "serial": f"EMP-{code}-{1001 + k}",
                    "tag1": tag,
                    "labels": [ROLES_AT_WORK[k % len(ROLES_AT_WORK)]],
                    **_last_seen(rng, plan_id, shelves, now),
                }
            )
            tag_rows.append({"org_id": org_id, "tag": tag, "thing_id": thing_id})
    for table, rows in (
        (Map, map_rows),
        (Zone, zone_rows),
        (Endpoint, endpoint_rows),
        (ZoneGate, gate_rows),
        (EndpointStatus, status_rows),
        (LocationTag, shelf_rows),
        (Thing, thing_rows),
        (ThingTag, tag_rows),
        (ReportConfig, report_rows),
        (OrgKey, org_keys_of(Endpoint, endpoint_rows)),
    ):
        await session.execute(insert(table), rows)


@dataclass(frozen=True)
class DemoUsers:
    password: str
    usernames: list[str]


async def seed_demo(
    sessionmaker: async_sessionmaker[AsyncSession], password: str | None = None
) -> DemoUsers | None:
    """Seed the demo organization's sites and users; None when already seeded."""
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
        await _seed_tracking(session, org.id, sites)
        return DemoUsers(shared_password, [u[1] for u in USERS])
