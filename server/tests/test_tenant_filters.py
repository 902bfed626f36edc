"""Every statement on a tenant table names its organization. conftest.py checks the SQL log
of the whole run (tests/tenant_sql.py); this runs a few features' API flows on a log of its
own, so a change that breaks it fails here by name, and checks the checker."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import select, update

import tests.test_endpoints as endpoints
import tests.test_exceptions as exceptions
import tests.test_images as images
import tests.test_imports as imports
import tests.test_reports as reports
import tests.test_sites as sites
import tests.test_things as things
import tests.test_zones as zones
from tagtrack.models import Thing
from tagtrack.reports.repository import DailyRepository
from tagtrack.users.repository import UserRepository
from tests.tenant_sql import SqlLog, install, names_tenant_table_without_org


@contextmanager
def recording(log: SqlLog) -> Iterator[SqlLog]:
    uninstall = install(log)
    try:
        yield log
    finally:
        uninstall()


@pytest.fixture
def sql_log() -> Iterator[SqlLog]:
    with recording(SqlLog()) as log:
        yield log


async def test_every_statement_on_a_tenant_table_filters_by_organization(
    org_factory: Any,
    sessionmaker: Any,
    settings: Any,
    anonymous: Any,
    monkeypatch: Any,
    sql_log: SqlLog,
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
    assert sql_log.recorded > 100
    assert sql_log.report() == []


def test_statements_on_tenant_tables_must_name_org_id() -> None:
    assert names_tenant_table_without_org("SELECT things.id FROM things WHERE things.id = $1")
    assert names_tenant_table_without_org('COPY "events" (tag) FROM STDIN')
    assert names_tenant_table_without_org("UPDATE zones SET name=$1 WHERE zones.id = $2")
    assert not names_tenant_table_without_org(
        "SELECT things.id FROM things WHERE things.org_id = $1 AND things.id = $2"
    )
    assert names_tenant_table_without_org("SELECT sites.org_id, sites.id FROM sites")
    assert names_tenant_table_without_org(
        "DELETE FROM zones WHERE zones.id = $1 RETURNING zones.org_id"
    )
    assert not names_tenant_table_without_org(
        "SELECT zones.name FROM things JOIN zones ON zones.org_id = things.org_id"
        " AND zones.id = things.zone_id WHERE things.id = $1"
    )
    assert not names_tenant_table_without_org("INSERT INTO sites (org_id, name) VALUES ($1, $2)")
    assert not names_tenant_table_without_org("SELECT organizations.id FROM organizations")
    assert not names_tenant_table_without_org("DELETE FROM login_failures WHERE time < $1")
    assert not names_tenant_table_without_org("DELETE FROM user_sessions WHERE token_hash = $1")


async def test_the_server_function_behind_an_unfiltered_statement_is_reported(
    org_factory: Any, sessionmaker: Any
) -> None:
    org = await org_factory()
    strict = SqlLog(allowed={})
    with recording(strict):
        async with sessionmaker() as session:
            # Across organizations by design: reported only when not allowed.
            await DailyRepository(session).scheduled_sites(None)
            # Found through org_keys, then read with its org_id.
            await UserRepository(session).by_username(org.usernames["Viewer"])
            # Test code's own statements are not the server's.
            await session.execute(select(Thing.id).where(Thing.name == "x"))
            await session.execute(update(Thing).where(Thing.name == "x").values(name="y"))
    functions = {function for function, _ in strict.offenders}
    assert functions == {"tagtrack.reports.repository:DailyRepository.scheduled_sites"}
    allowing = SqlLog()
    with recording(allowing):
        async with sessionmaker() as session:
            await DailyRepository(session).scheduled_sites(None)
    assert allowing.offenders == {}
