"""Live updates: committed changes reach the streams of their organization's site, through
real servers sharing one database, and the stream keeps to its caller's access."""

import asyncio
import contextlib
import json
import signal
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import tagtrack.live.service as live_service
from tagtrack.core.config import Settings
from tagtrack.core.security import token_hash
from tagtrack.core.web_security import API_CSP
from tagtrack.core.workers import GRACEFUL_STOP_SECONDS
from tagtrack.live.repository import LiveRepository
from tagtrack.main import create_app
from tagtrack.models import UserSession
from tagtrack.models.base import utcnow
from tests.clock import Clock
from tests.conftest import Org
from tests.database import fresh_database
from tests.serve import free_port, serve
from tests.test_apikeys import create_key
from tests.test_ingest_durability import ADMIN, ADMIN_PASSWORD
from tests.tracking import Floor, epc
from tests.waiting import until

MESSAGE_TIMEOUT = 10.0


@dataclass
class Served:
    url: str
    app: Any


@asynccontextmanager
async def running(database_url: str, settings: Settings) -> AsyncIterator[Served]:
    """A whole app (its own listener, pool and middlewares) under uvicorn on a free port."""
    app = create_app(settings, database_url=database_url)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert not task.done(), "the server stopped while starting"
            assert time.monotonic() < deadline, "the server did not start"
            await asyncio.sleep(0.05)
        await asyncio.wait_for(app.state.live.connected.wait(), MESSAGE_TIMEOUT)
        yield Served(f"http://127.0.0.1:{port}", app)
    finally:
        app.state.live.close_streams()
        server.should_exit = True
        await asyncio.wait_for(task, 30)


@dataclass
class Stream:
    response: httpx.Response
    messages: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    comments: list[str] = field(default_factory=list)
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    async def next(self, within: float = MESSAGE_TIMEOUT) -> dict[str, Any]:
        return await asyncio.wait_for(self.messages.get(), within)

    def pending(self) -> list[dict[str, Any]]:
        found = []
        while not self.messages.empty():
            found.append(self.messages.get_nowait())
        return found


async def _pump(stream: Stream) -> None:
    data: list[str] = []
    try:
        async for line in stream.response.aiter_lines():
            if line.startswith("data: "):
                data.append(line.removeprefix("data: "))
            elif line.startswith(":"):
                stream.comments.append(line)
            elif line == "" and data:
                stream.messages.put_nowait(json.loads("\n".join(data)))
                data = []
    except httpx.HTTPError:
        pass
    finally:
        stream.ended.set()


@asynccontextmanager
async def opened(
    url: str, *, site: str = "", token: str = "", cookie: str = "", lifetime: int | None = None
) -> AsyncIterator[Stream]:
    """An open live stream, read in the background: its messages, comments and end."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    cookies = {"tagtrack_session": cookie} if cookie else {}
    params: dict[str, Any] = {"site": site}
    if lifetime is not None:
        params["lifetime"] = lifetime
    # No read timeout: a quiet stream sends nothing for a while.
    timeout = httpx.Timeout(10, read=None)
    client = httpx.AsyncClient(base_url=url, headers=headers, cookies=cookies, timeout=timeout)
    async with (
        client,
        client.stream("GET", "/api/live", params=params) as response,
    ):
        assert response.status_code == 200, (await response.aread()).decode()
        stream = Stream(response)
        task = asyncio.create_task(_pump(stream))
        try:
            yield stream
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def session_of(org: Org, role: str = "Viewer") -> str:
    token = org.client(role).cookies.get("tagtrack_session")
    assert token
    return token


async def change(floor: Floor, site: str) -> None:
    """New events at the site: a read of an unknown tag, acknowledged and processed."""
    endpoint = await floor.endpoint("Live gate", site_id=site)
    await floor.read(endpoint, epc(), 0)


@pytest.fixture
async def served(database_url: str, settings: Settings) -> AsyncIterator[Served]:
    async with running(database_url, settings) as app:
        yield app


def on_clock(served: Served, monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The streams opened from now on time their gaps on a clock the test moves on."""
    clock = Clock()
    monkeypatch.setattr(served.app.state.live, "clock", clock)
    monkeypatch.setattr(served.app.state.live, "sleep", clock.sleep)
    return clock


async def test_a_processed_batch_reaches_the_streams_of_its_site_only(
    served: Served, org_factory, sessionmaker, settings, anonymous, monkeypatch
) -> None:
    clock = on_clock(served, monkeypatch)
    org: Org = await org_factory()
    other: Org = await org_factory()
    site_a, site_b = org.site_ids
    floor = Floor(org.id, site_a, sessionmaker, settings, anonymous)
    other_floor = Floor(other.id, other.site_ids[0], sessionmaker, settings, anonymous)
    viewer, stranger = session_of(org), session_of(other)
    async with (
        opened(served.url, site=site_a, cookie=viewer) as at_a,
        opened(served.url, site=site_b, cookie=viewer) as at_b,
        opened(served.url, cookie=viewer) as everywhere,
        opened(served.url, cookie=stranger) as other_org,
    ):
        headers = at_a.response.headers
        assert headers["content-type"].startswith("text/event-stream")
        assert headers["cache-control"] == "no-cache"
        assert headers["x-accel-buffering"] == "no"
        assert headers["content-security-policy"] == API_CSP
        assert headers["x-content-type-options"] == "nosniff"

        await change(floor, site_a)
        assert await at_a.next() == {"sites": [site_a], "missed": False}
        assert await everywhere.next() == {"sites": [site_a], "missed": False}

        await change(other_floor, other.site_ids[0])
        assert await other_org.next() == {"sites": [other.site_ids[0]], "missed": False}

        await change(floor, site_b)
        assert await at_b.next() == {"sites": [site_b], "missed": False}
        clock.advance(live_service.MESSAGE_GAP_SECONDS)  # the stream's second message
        assert (await everywhere.next())["sites"] == [site_b]
        # Each notice reached every stream at once: whatever another stream should have had,
        # it has by now. After the gap, each stream's next message is a change of its own
        # sites only, with nothing held back merged into it or sent before it.
        clock.advance(live_service.MESSAGE_GAP_SECONDS)
        await announce(sessionmaker, other.id, other.site_ids[0])
        assert await other_org.next() == {"sites": [other.site_ids[0]], "missed": False}
        await announce(sessionmaker, org.id, site_a)
        assert await at_a.next() == {"sites": [site_a], "missed": False}
        assert await everywhere.next() == {"sites": [site_a], "missed": False}
        await announce(sessionmaker, org.id, site_b)
        assert await at_b.next() == {"sites": [site_b], "missed": False}
        assert at_a.pending() == []
        assert at_b.pending() == []
        assert other_org.pending() == []
        assert everywhere.pending() == []


async def announce(
    sessionmaker: async_sessionmaker[AsyncSession], org_id: str, *sites: str
) -> None:
    async with sessionmaker() as session, session.begin():
        await LiveRepository(session).announce(org_id, sites)


async def test_notices_are_sent_on_commit_only_and_at_most_one_message_a_polling_period(
    served: Served, org_factory, sessionmaker, monkeypatch
) -> None:
    clock = on_clock(served, monkeypatch)
    org: Org = await org_factory()
    site_a, site_b = org.site_ids
    async with opened(served.url, cookie=session_of(org)) as stream:
        async with sessionmaker() as session:
            await LiveRepository(session).announce(org.id, [site_b])
            await session.rollback()
        async with sessionmaker() as session, session.begin():
            await LiveRepository(session).announce(org.id, [site_a])
            await asyncio.sleep(0.5)
            assert stream.pending() == [], "nothing is sent before the commit"
        assert await stream.next() == {"sites": [site_a], "missed": False}
        first = clock()
        await announce(sessionmaker, org.id, site_b)
        await announce(sessionmaker, org.id, site_a)
        # Both arrive within the gap after the first message: the stream holds them and
        # sleeps until the gap's end...
        [subscription] = served.app.state.live.subscriptions
        gap_end = first + live_service.MESSAGE_GAP_SECONDS

        async def held() -> bool:
            return subscription.changed == {site_a, site_b} and clock.sleepers == [
                pytest.approx(gap_end)
            ]

        await until(held, MESSAGE_TIMEOUT)
        assert stream.pending() == []
        # ...then one message carries them.
        clock.advance(live_service.MESSAGE_GAP_SECONDS)
        assert await stream.next() == {"sites": sorted([site_a, site_b]), "missed": False}


async def test_signed_out_callers_and_sites_out_of_scope_are_refused(
    org_factory, anonymous, app
) -> None:
    org: Org = await org_factory()
    response = await anonymous.get("/api/live")
    assert response.status_code == 401
    assert response.json()["reason"] == "unauthorized"
    key = await create_key(org, sites=[org.site_ids[0]])
    response = await anonymous.get(
        "/api/live",
        params={"site": org.site_ids[1]},
        headers={"Authorization": f"Bearer {key['token']}"},
    )
    assert response.status_code == 404
    bad = await org.client("Viewer").get("/api/live", params={"lifetime": 7200})
    assert bad.status_code == 422


async def test_a_one_site_key_hears_only_its_site(
    served: Served, org_factory, sessionmaker, settings, anonymous, monkeypatch
) -> None:
    clock = on_clock(served, monkeypatch)
    org: Org = await org_factory()
    site_a, site_b = org.site_ids
    floor = Floor(org.id, site_a, sessionmaker, settings, anonymous)
    key = await create_key(org, sites=[site_a])
    async with (
        opened(served.url, token=key["token"]) as keyed,
        opened(served.url, site=site_b, cookie=session_of(org)) as at_b,
    ):
        await change(floor, site_b)
        assert (await at_b.next())["sites"] == [site_b]
        await change(floor, site_a)
        assert await keyed.next() == {"sites": [site_a], "missed": False}
        # After the gap, the key's next message is its site's change alone: nothing of
        # site B was held back for it.
        clock.advance(live_service.MESSAGE_GAP_SECONDS)
        await announce(sessionmaker, org.id, site_a)
        assert await keyed.next() == {"sites": [site_a], "missed": False}
        assert keyed.pending() == []


async def test_a_manual_event_in_one_process_reaches_a_stream_of_another(
    database_url: str, settings: Settings, org_factory, sessionmaker, anonymous
) -> None:
    org: Org = await org_factory()
    site = org.site_ids[0]
    floor = Floor(org.id, site, sessionmaker, settings, anonymous)
    zone = await floor.zone("Live dock")
    tag = epc()
    await floor.thing("Live crate", tag)
    async with running(database_url, settings) as first, running(database_url, settings) as second:
        listeners = [s.app.state.live.connection for s in (first, second)]
        pids = {connection.get_server_pid() for connection in listeners}
        assert len(pids) == 2, "each process listens on its own connection"
        async with (
            opened(second.url, site=site, cookie=session_of(org)) as stream,
            httpx.AsyncClient(base_url=first.url) as operator,
        ):
            operator.cookies.set("tagtrack_session", session_of(org, "Operator"))
            created = await operator.post("/api/events", json={"tag": tag, "zone": zone.id})
            assert created.status_code == 201, created.text
            assert await stream.next() == {"sites": [site], "missed": False}


async def test_the_listener_reconnects_after_its_connection_is_terminated(
    served: Served, org_factory, sessionmaker, settings, anonymous, monkeypatch
) -> None:
    clock = on_clock(served, monkeypatch)
    org: Org = await org_factory()
    site = org.site_ids[0]
    floor = Floor(org.id, site, sessionmaker, settings, anonymous)
    hub = served.app.state.live
    async with opened(served.url, site=site, cookie=session_of(org)) as stream:
        pid = hub.connection.get_server_pid()
        connections = hub.connections
        async with sessionmaker() as session:
            ended = await session.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        assert ended
        # Whatever was committed while no one listened may be lost: the stream is told so.
        assert await stream.next() == {"sites": [], "missed": True}
        assert hub.connections == connections + 1
        assert hub.connection.get_server_pid() != pid
        clock.advance(live_service.MESSAGE_GAP_SECONDS)  # the stream's second message
        await change(floor, site)
        assert await stream.next() == {"sites": [site], "missed": False}


async def test_the_stream_keeps_alive_and_ends_with_its_session(
    served: Served,
    org_factory,
    monkeypatch: pytest.MonkeyPatch,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    monkeypatch.setattr(live_service, "KEEPALIVE_SECONDS", 0.2)
    monkeypatch.setattr(live_service, "RECHECK_SECONDS", 0.3)
    org: Org = await org_factory()
    client = org.client("Manager")
    async with opened(served.url, cookie=session_of(org, "Manager")) as stream:
        # The second keepalive comes after the caller was checked again (due before it).
        async def kept_alive() -> bool:
            return stream.ended.is_set() or stream.comments.count(": keepalive") >= 2

        await until(kept_alive, MESSAGE_TIMEOUT)
        assert not stream.ended.is_set(), "a valid session keeps its stream"
        assert (await client.post("/api/auth/logout")).status_code == 204
        await asyncio.wait_for(stream.ended.wait(), 5)


async def test_opening_a_stream_is_not_a_use_of_the_session(
    org_factory, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    org: Org = await org_factory()
    client = org.client("Viewer")
    hashed = token_hash(session_of(org))
    soon = utcnow() + timedelta(minutes=10)

    async def deadline(new: datetime | None = None) -> datetime:
        async with sessionmaker() as session, session.begin():
            row = await session.get(UserSession, hashed)
            assert row is not None
            if new is not None:
                row.expires_at = new
            return row.expires_at

    await deadline(soon)
    # A stream, and each reconnection of it, leaves an idle session to expire.
    assert (await client.get("/api/live", params={"lifetime": 0})).status_code == 200
    assert await deadline() == soon
    # Any other call is a use and pushes the deadline on.
    assert (await client.get("/api/users/me")).status_code == 200
    assert await deadline() > soon + timedelta(hours=1)


async def test_a_stream_ends_at_its_lifetime(served: Served, org_factory) -> None:
    org: Org = await org_factory()
    async with opened(served.url, cookie=session_of(org), lifetime=1) as stream:
        started = time.monotonic()
        await asyncio.wait_for(stream.ended.wait(), 5)
        assert time.monotonic() - started < 3


def test_serve_stops_promptly_with_a_stream_open(tmp_path) -> None:
    with fresh_database() as url:
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_DATA_DIR": str(tmp_path),
            "TAGTRACK_ADMIN_EMAIL": ADMIN,
            "TAGTRACK_ADMIN_PASSWORD": ADMIN_PASSWORD,
        }
        opened_stream = threading.Event()
        stream_ended = threading.Event()
        with serve(env, stop_signal=signal.SIGTERM) as server:
            admin = httpx.Client(base_url=server.url, timeout=httpx.Timeout(10, read=None))
            signed_in = admin.post(
                "/api/auth/login", json={"username": ADMIN, "password": ADMIN_PASSWORD}
            )
            # The server's own lines tell why, should the first sign-in ever be refused.
            assert signed_in.status_code == 200, (signed_in.text, "".join(server.output[-40:]))

            def listen() -> None:
                with contextlib.suppress(httpx.HTTPError), admin.stream("GET", "/api/live") as r:
                    assert r.status_code == 200
                    opened_stream.set()
                    for _ in r.iter_lines():
                        pass
                stream_ended.set()

            reader = threading.Thread(target=listen, daemon=True)
            reader.start()
            assert opened_stream.wait(10)
            stopping = time.monotonic()
        stopped = time.monotonic() - stopping
        assert server.process.returncode == 0, server.text()
        # uvicorn would wait out its graceful stop for the open stream, then cancel it. How
        # long the rest of the stop takes depends on the machine's load, not on the stream.
        assert "timeout graceful shutdown exceeded" not in server.text(), server.text()
        assert stopped < GRACEFUL_STOP_SECONDS, f"took {stopped:.1f} s to stop"
        assert stream_ended.wait(5)
        admin.close()
