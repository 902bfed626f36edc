"""Every statement on a tenant table names its organisation: the SQL of a few features' API
flows, recorded from the driver, is checked for `org_id`. That is what lets a database
sharded by organisation (Citus, distribution column org_id) send each statement to one node,
and it keeps one organisation's request from touching another's rows."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

import tests.test_endpoints as endpoints
import tests.test_exceptions as exceptions
import tests.test_images as images
import tests.test_imports as imports
import tests.test_reports as reports
import tests.test_sites as sites
import tests.test_things as things
import tests.test_zones as zones
from tagtrack.models import Base

TENANT_TABLES = frozenset(t.name for t in Base.metadata.tables.values() if "org_id" in t.c)
_TABLE = re.compile(r'\b(?:FROM|JOIN|UPDATE|INTO)\s+"?(\w+)"?', re.IGNORECASE)


@pytest.fixture
def statements() -> Iterator[list[str]]:
    recorded: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        recorded.append(" ".join(statement.split()))

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield recorded
    finally:
        event.remove(Engine, "before_cursor_execute", record)


# The unit of work's own writes of a loaded row, by its primary key: they name org_id once
# the tenant tables' primary keys are (org_id, id), the step before distributing them.
_BY_PRIMARY_KEY = re.compile(
    r"^(UPDATE (\w+) SET .* WHERE \2\.id = \$\d+::\w+|DELETE FROM (\w+) WHERE \3\.id = \$\d+::\w+)$"
)
# Housekeeping across every organisation by design: expired sign-in state.
_HOUSEKEEPING = re.compile(r"^DELETE FROM (user_sessions|sso_logins) WHERE \1\.expires_at < ")


# Known, still to be given org_id for sharding (the ids they use were already checked to be
# the organisation's): processing/repository.py's thing names and tag prefixes, read under
# the organisation's lock, and settings/repository.py's site settings, read by things and imports.
KNOWN = (
    "SELECT site_settings.site_id, site_settings.settings ->> ",
    "SELECT things.id, things.name FROM things WHERE things.id IN (",
    "SELECT site_settings.settings FROM site_settings WHERE site_settings.site_id = ",
)


def unfiltered(statements: list[str]) -> list[str]:
    """Statements that touch a tenant table and never mention org_id."""
    found = []
    for statement in statements:
        tables = set(_TABLE.findall(statement)) & TENANT_TABLES
        if not tables or "org_id" in statement:
            continue
        if _BY_PRIMARY_KEY.match(statement) or _HOUSEKEEPING.match(statement):
            continue
        if statement.startswith(KNOWN):
            continue
        found.append(statement)
    return sorted(set(found))


async def test_every_statement_on_a_tenant_table_filters_by_organisation(
    org_factory: Any,
    sessionmaker: Any,
    settings: Any,
    anonymous: Any,
    monkeypatch: Any,
    statements: list[str],
) -> None:
    await zones.test_create_read_update_delete_with_gates(org_factory)
    await things.test_create_and_read_every_field(org_factory)
    await things.test_state_names_come_from_zone_and_endpoint(org_factory, sessionmaker)
    await sites.test_create_site_round_trips_every_field(org_factory)
    await endpoints.test_create_read_update_delete(org_factory)
    await images.test_zip_and_csv_of_a_selection_and_of_a_query(org_factory)
    await imports.test_rows_become_items_with_every_field(org_factory)
    await imports.test_a_duplicate_tag_is_reported_then_filled_in(org_factory)
    await images.test_delete_by_query_deletes_exactly_the_matches(org_factory, settings)
    await exceptions.test_exceptions_list_detail_and_export(
        org_factory, sessionmaker, settings, anonymous, monkeypatch
    )
    await reports.test_seen_report_rows_headings_and_summary(
        org_factory, sessionmaker, settings, anonymous, monkeypatch
    )
    offenders = unfiltered(statements)
    assert statements
    assert offenders == [], "\n".join(offenders)
