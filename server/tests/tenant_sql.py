"""The SQL log of a test run, checked for statements on a tenant table without org_id.

Every statement the server prepares or sends through asyncpg (SQLAlchemy's and the raw
driver's, COPY included) is seen here, once per connection and text at least. A statement
that names a tenant table and never mentions org_id is kept with the server function that
sent it (the select list and RETURNING do not count: org_id must be in the rows an insert
writes, or in a join or WHERE condition); statements sent by test code itself (setting up
rows, checking them) are not the server's and are not checked. At the end of the run
conftest.py fails it when any such statement came from a function not in
`ACROSS_ORGANIZATIONS`.

That is what lets a database sharded by organization (Citus, distribution column org_id)
send each statement to one node, and it keeps one organization's request from touching
another's rows.
"""

import re
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import Any

import asyncpg

import tagtrack
from tagtrack.models import Base

# Global tables that carry org_id as data: found by a key before the organization is known
# (org_keys: reader keys, endpoint ids, API tokens, usernames) or by a secret token
# (sign-in state). Once sharded they are reference tables, not distributed.
GLOBAL_TABLES = frozenset({"org_keys", "user_sessions", "password_resets", "sso_logins"})
TENANT_TABLES = (
    frozenset(t.name for t in Base.metadata.tables.values() if "org_id" in t.c) - GLOBAL_TABLES
)
_TABLE = re.compile(r'\b(?:FROM|JOIN|UPDATE|INTO|COPY)\s+"?(\w+)"?', re.IGNORECASE)
_SERVER = str(Path(tagtrack.__file__).parent) + "/"
# Shared helpers (exists, paginate, chunks): the statement is their caller's.
_HELPERS = _SERVER + "kit/"
_TESTS = str(Path(__file__).parent) + "/"

# Server functions that work across organizations by design, and why: housekeeping over
# every organization (a multi-shard statement once sharded, run in the background, never
# for a request), and tools that name a site rather than an organization.
ACROSS_ORGANIZATIONS = {
    "tagtrack.processing.repository:ProcessingRepository.orgs_with_pending": "processing loop",
    "tagtrack.processing.repository:ProcessingRepository.purge_before": "old raw payloads",
    "tagtrack.reports.repository:DailyRepository.scheduled_sites": "daily jobs scheduler",
    "tagtrack.mail.repository:OutboxRepository.orgs_due": "mail outbox sender",
    "tagtrack.mail.repository:OutboxRepository.next_due": "mail outbox sender",
    # The command-line import names a site by id or name, not its organization.
    "tagtrack.imports.repository:ImportRepository.sites_named": "site named on the command line",
    # The demo's reader simulator drives every site of its database.
    "tagtrack.demo.repository:DemoRepository.endpoints": "demo simulator",
    "tagtrack.demo.repository:DemoRepository.gates": "demo simulator",
    "tagtrack.demo.repository:DemoRepository.location_tags": "demo simulator",
    "tagtrack.demo.repository:DemoRepository.thing_tags": "demo simulator",
    "tagtrack.demo.repository:DemoRepository.site_ids_named": "demo simulator",
}


@dataclass
class SqlLog:
    """Unfiltered statements on tenant tables, by the server function that sent them."""

    allowed: dict[str, str] = field(default_factory=lambda: dict(ACROSS_ORGANIZATIONS))
    offenders: dict[tuple[str, str], str] = field(default_factory=dict)
    # Statement text -> whether it names a tenant table without org_id (most repeat).
    _verdicts: dict[str, bool] = field(default_factory=dict)
    recorded: int = 0

    def see(self, query: str) -> None:
        self.recorded += 1
        verdict = self._verdicts.get(query)
        if verdict is None:
            verdict = names_tenant_table_without_org(query)
            self._verdicts[query] = verdict
        if verdict:
            sender = server_function(sys._getframe(2))
            if sender is not None and sender[0] not in self.allowed:
                self.offenders.setdefault((sender[0], " ".join(query.split())), sender[1])

    def report(self) -> list[str]:
        return [
            f"{where} ({function}):\n    {statement}"
            for (function, statement), where in sorted(self.offenders.items())
        ]


def names_tenant_table_without_org(statement: str) -> bool:
    if not set(_TABLE.findall(statement)) & TENANT_TABLES:
        return False
    return "org_id" not in _conditions(statement)


def _conditions(statement: str) -> str:
    """Where an org filter can be: an insert's or COPY's columns; a query's FROM onwards (its
    joins and WHERE), an update's WHERE, a delete's WHERE, not a list of returned columns."""
    statement = " ".join(statement.split())
    upper = statement.upper()
    if upper.startswith(("INSERT", "COPY")):
        return statement
    returning = upper.find(" RETURNING ")
    if returning >= 0:
        statement, upper = statement[:returning], upper[:returning]
    start = upper.find(" WHERE " if upper.startswith("UPDATE") else " FROM ")
    return statement[start:] if start >= 0 else ""


def server_function(frame: Any) -> tuple[str, str] | None:
    """The innermost server function on the stack ("module:qualname", "file:line"), or
    None when test code sent the statement itself."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_SERVER) and not filename.startswith(_HELPERS):
            module = frame.f_globals.get("__name__", "")
            where = f"{filename.removeprefix(_SERVER)}:{frame.f_lineno}"
            return f"{module}:{frame.f_code.co_qualname}", where
        if filename.startswith(_TESTS):
            return None
        frame = frame.f_back
    return None


def _watching(
    method: Callable[..., Coroutine[Any, Any, Any]], log: SqlLog, query_of: Callable[..., str]
) -> Callable[..., Coroutine[Any, Any, Any]]:
    @wraps(method)
    async def watched(self: Any, *args: Any, **kwargs: Any) -> Any:
        log.see(query_of(*args, **kwargs))
        return await method(self, *args, **kwargs)

    return watched


def _copy_query(table_name: str, *args: Any, columns: Any = None, **kwargs: Any) -> str:
    return f"COPY {table_name} ({', '.join(columns or ())}) FROM STDIN"


def install(log: SqlLog) -> Callable[[], None]:
    """Watch every asyncpg connection; returns what undoes it."""
    connection = asyncpg.connection.Connection
    originals = {
        name: getattr(connection, name)
        for name in ("_get_statement", "execute", "copy_records_to_table")
    }
    # Prepared statements (everything SQLAlchemy sends, and the driver's fetch/execute with
    # arguments) pass _get_statement; execute() without arguments goes straight out.
    connection._get_statement = _watching(  # type: ignore[method-assign]
        originals["_get_statement"], log, lambda query, *a, **k: query
    )

    async def execute(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        if not args:
            log.see(query)
        return await originals["execute"](self, query, *args, **kwargs)

    connection.execute = execute  # type: ignore[method-assign]
    connection.copy_records_to_table = _watching(  # type: ignore[method-assign]
        originals["copy_records_to_table"], log, _copy_query
    )

    def uninstall() -> None:
        for name, method in originals.items():
            setattr(connection, name, method)

    return uninstall
