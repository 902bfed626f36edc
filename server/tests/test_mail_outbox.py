"""The mail outbox: mail requested while the mail server is away arrives once it is back,
each failed attempt is in the audit log, and two senders never send a mail twice."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from typing import Any

import pytest
from prometheus_client import REGISTRY
from sqlalchemy import select

from tagtrack.core.config import Settings
from tagtrack.mail.sender import OutboxSender
from tagtrack.mail.service import Outbox
from tagtrack.main import create_app
from tagtrack.models import AuditEntry, OutboxMail
from tagtrack.models.base import utcnow
from tests.clock import Clock
from tests.conftest import Org, make_client
from tests.mailbox import Mailbox, SmtpServer, deliver, smtp_server, stoppable_smtp_server
from tests.tracking import Floor, epc
from tests.waiting import until

NS = 1_000_000_000
# The sending app's longest wait between attempts.
LONGEST_WAIT = 1.0


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Mailbox, str, SmtpServer]]:
    with stoppable_smtp_server() as served:
        yield served


@pytest.fixture(scope="module")
async def sending_app(
    database_url: str, settings: Settings, smtp: tuple[Mailbox, str, SmtpServer]
) -> AsyncIterator[object]:
    """A server whose outbox sender retries after 0.2 s, then 0.4 s, up to 1 s."""
    update = {
        "smtp_url": smtp[1],
        "mail_sender": True,
        "mail_retry_first_seconds": 0.2,
        "mail_retry_max_seconds": LONGEST_WAIT,
    }
    application = create_app(settings.model_copy(update=update), database_url=database_url)
    async with application.router.lifespan_context(application):
        yield application


async def next_attempt(sender: OutboxSender, clock: Clock, floor: Floor, org_id: str) -> None:
    """Move the sender's clock on by the longest wait and wake it: both mails are tried,
    and fail, once more."""
    tried = [len(await audit(floor, o, "mail.failed")) for o in (org_id, floor.org_id)]
    clock.advance(LONGEST_WAIT)
    sender.wake.set()

    async def failed_again() -> bool:
        failed = [len(await audit(floor, o, "mail.failed")) for o in (org_id, floor.org_id)]
        return all(now > before for now, before in zip(failed, tried, strict=True))

    await until(failed_again, 15)


def counted(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def audit(floor: Floor, org_id: str, action: str) -> list[AuditEntry]:
    async with floor.sessionmaker() as session:
        stmt = select(AuditEntry).where(AuditEntry.org_id == org_id, AuditEntry.action == action)
        return list((await session.scalars(stmt)).all())


async def test_two_senders_send_each_mail_once(floor: Floor) -> None:
    subjects = [f"Shift note {n}" for n in range(30)]
    async with floor.sessionmaker() as session, session.begin():
        outbox = Outbox(session, floor.settings)
        for subject in subjects:
            await outbox.queue(floor.org_id, ["shift@example.com"], subject, "Hello\n")
    with smtp_server() as (mailbox, url):
        given = floor.settings.model_copy(update={"smtp_url": url})
        first, second = (
            OutboxSender(floor.sessionmaker, given),
            OutboxSender(floor.sessionmaker, given),
        )
        sent = await asyncio.gather(
            first.deliver_due(floor.org_id), second.deliver_due(floor.org_id)
        )
        await mailbox.arrived("shift@example.com", len(subjects))
    assert sum(sent) == len(subjects) and all(sent), sent
    assert sorted(str(m["Subject"]) for m in mailbox.to("shift@example.com")) == sorted(subjects)


async def test_mail_is_given_up_after_the_last_attempt(floor: Floor) -> None:
    async with floor.sessionmaker() as session, session.begin():
        await Outbox(session, floor.settings).queue(
            floor.org_id, ["nobody@example.com"], "Never delivered", "Hello\n"
        )
    with smtp_server() as (_, url):
        unreachable = url.rsplit(":", 1)[0] + ":1"
    given = floor.settings.model_copy(update={"mail_max_attempts": 3})
    given_up_before = counted("tagtrack_mail_failed_total", given_up="true")
    for minutes in (0, 1, 2, 4, 8):  # the waits double: 30 s, 60 s
        assert (
            await deliver(
                floor.sessionmaker, unreachable, given, floor.org_id, timedelta(minutes=minutes)
            )
            == 0
        )
    assert [e.detail["attempt"] for e in await audit(floor, floor.org_id, "mail.failed")] == [1, 2]
    [gave_up] = await audit(floor, floor.org_id, "mail.given_up")
    assert (gave_up.target, gave_up.detail["attempt"]) == ("Never delivered", 3)
    assert counted("tagtrack_mail_failed_total", given_up="true") == given_up_before + 1
    async with floor.sessionmaker() as session:
        [row] = (
            await session.scalars(select(OutboxMail).where(OutboxMail.org_id == floor.org_id))
        ).all()
    assert (row.state, row.attempts, row.message) == ("failed", 3, b"")
    assert row.next_attempt < utcnow() + timedelta(minutes=2)


# Last: the server's own sender, running until the end of the module, would take the
# mail the tests above deliver themselves.
async def test_reset_and_dwell_mail_asked_for_during_an_outage_arrive_once_after_it(
    org_factory: Any,
    floor: Floor,
    sending_app: Any,
    smtp: tuple[Mailbox, str, SmtpServer],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mailbox, _, server = smtp
    org: Org = await org_factory()
    username = org.usernames["Operator"]
    door = await floor.endpoint("Door")
    await floor.zone(
        "Cold room", gates=[(door, "IN", -1)], duration=5 * 60 * NS, emails=["cold@example.com"]
    )
    tag = epc()
    await floor.thing("Vaccine box", tag)
    await floor.read(door, tag, 0)
    failed_before = counted("tagtrack_mail_failed_total", given_up="false")
    sent_before = counted("tagtrack_mail_sent_total")

    server.stop()
    try:
        async with make_client(sending_app) as client:
            asked = await client.post("/api/auth/passwordresetrequest", params={"email": username})
        assert asked.status_code == 204
        assert (await floor.sweep(301)).exceptions == 1
        # Attempts fail while the server is away, and each says so in the audit log.
        for _ in range(200):
            if await audit(floor, org.id, "mail.failed") and await audit(
                floor, floor.org_id, "mail.failed"
            ):
                break
            await asyncio.sleep(0.05)
        # From here on the sender's clock moves only as the test moves it.
        sender: OutboxSender = sending_app.state.mail_sender
        started, clock = utcnow(), Clock(0)
        monkeypatch.setattr(sender, "clock", lambda: started + timedelta(seconds=clock()))
        for _ in range(2):  # some retries more
            await next_attempt(sender, clock, floor, org.id)
        assert mailbox.to(username) == [] and mailbox.to("cold@example.com") == []
    finally:
        server.start()

    clock.advance(LONGEST_WAIT)
    sender.wake.set()
    [reset] = await mailbox.arrived(username)
    [dwell] = await mailbox.arrived("cold@example.com")
    assert str(reset["Subject"]) == "Reset your TagTrack password"
    assert "Vaccine box" in str(dwell["Subject"])
    # Longer than the longest wait between attempts: nothing of theirs is due again.
    clock.advance(1.5 * LONGEST_WAIT)
    assert await sender.deliver_due(org.id) == 0
    assert await sender.deliver_due(floor.org_id) == 0
    assert len(mailbox.to(username)) == 1 and len(mailbox.to("cold@example.com")) == 1

    # The organization's administrator reads why the mail was late.
    log = await org.client("Administrator").get("/api/auditlog", params={"action": "mail.failed"})
    assert log.status_code == 200
    [first, *_] = sorted(log.json(), key=lambda e: e["time"])
    assert first["target"] == "Reset your TagTrack password"
    assert first["detail"]["to"] == username and first["detail"]["attempt"] == 1
    assert first["detail"]["error"] and first["detail"]["retry"]
    assert counted("tagtrack_mail_failed_total", given_up="false") >= failed_before + 2
    assert counted("tagtrack_mail_sent_total") >= sent_before + 2
    # Sent mail keeps no body: the reset link in it was a secret.
    async with floor.sessionmaker() as session:
        stmt = select(OutboxMail).where(OutboxMail.org_id == org.id)
        [row] = (await session.scalars(stmt)).all()
    assert (row.state, row.message) == ("sent", b"")
    assert row.attempts >= 2
