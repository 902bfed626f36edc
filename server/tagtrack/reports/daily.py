"""The daily jobs of each site at its daily time (site clock, DST-correct): the inventory
cycle and the report mail.

Every process runs this scheduler. A job claims its site and local day by inserting a
unique row in the job's transaction; a second process's claim waits on that row and then
finds it taken, so each job runs once however many processes run. A job that fails rolls
its claim back and is tried again at the next tick of the same day. The report mail is
queued in the outbox in the claim's transaction; the outbox sender delivers it, retrying
while the mail server is away.
"""

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from email.message import EmailMessage
from html import escape
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.core.logging import get_logger
from tagtrack.core.mail import Attachment, Mailer
from tagtrack.core.tasks import running
from tagtrack.exceptions.export import type_name
from tagtrack.exceptions.repository import ExceptionRepository
from tagtrack.exceptions.service import ELSEWHERE, MISSING, UNEXPECTED, inventory_exception
from tagtrack.mail.service import Outbox
from tagtrack.models import Site
from tagtrack.models.base import utcnow
from tagtrack.reports.repository import DailyRepository, ReportRepository
from tagtrack.reports.service import FILE_TYPES, ReportRunner, file_name

log = get_logger("tagtrack.reports")

INVENTORY = "inventory"
MAIL = "mail"


def daily_time_on(day: date, daily_time: str, timezone: str) -> datetime:
    """The UTC instant of the daily time on that day of the site's clock. A time skipped by
    a DST change falls at the same wall time in the old offset (one hour later on the clock);
    a time that happens twice is taken the first time."""
    hours, minutes = (int(part) for part in daily_time.split(":"))
    local = datetime.combine(day, time(hours, minutes), tzinfo=ZoneInfo(timezone))
    return local.astimezone(UTC)


def due_today(site: Site, now: datetime) -> tuple[date, datetime] | None:
    """(local day, daily time) when today's daily time of the site has come, else None."""
    try:
        day = now.astimezone(ZoneInfo(site.timezone)).date()
        due = daily_time_on(day, site.report_daily_time, site.timezone)
    except (ValueError, KeyError):
        log.warning("site has an unusable daily time or timezone", site=site.id)
        return None
    return (day, due) if now >= due else None


def inventory_findings(
    before: dict[str, list[str]], read: set[tuple[str, str]]
) -> list[tuple[str, str, list[str]]]:
    """(type, zone, things) from the zones' contents at the last cycle and the (zone, thing)
    reads since: things not read again in their zone are missing; things read in a zone
    that were in no zone are unexpected, and those that were in another zone are elsewhere."""
    was_in = {thing: zone for zone, things in before.items() for thing in things}
    findings: list[tuple[str, str, list[str]]] = []
    for zone, things in sorted(before.items()):
        missing = [t for t in things if (zone, t) not in read]
        if missing:
            findings.append((MISSING, zone, sorted(missing)))
    unexpected: dict[str, list[str]] = {}
    elsewhere: dict[str, list[str]] = {}
    for zone, thing in read:
        if thing not in was_in:
            unexpected.setdefault(zone, []).append(thing)
        elif was_in[thing] != zone:
            elsewhere.setdefault(zone, []).append(thing)
    for kind, found in ((UNEXPECTED, unexpected), (ELSEWHERE, elsewhere)):
        findings.extend((kind, zone, sorted(things)) for zone, things in sorted(found.items()))
    return findings


NO_ATTACHMENT = "No report of this site is set to be mailed."


@dataclass(frozen=True)
class DailySummary:
    """What a site's daily mail says: its day, the period, exceptions by type, the files."""

    site: Site
    day: date
    since: datetime
    due: datetime
    counts: Sequence[tuple[str, int]]
    attachments: Sequence[Attachment]

    def on_site_clock(self, moment: datetime) -> str:
        return moment.astimezone(ZoneInfo(self.site.timezone)).strftime("%Y-%m-%d %H:%M")

    def lines(self) -> list[str]:
        """The summary's paragraphs; the first is the heading."""
        return [
            f"The daily report of {self.site.name} for {self.day.isoformat()}",
            f"From {self.on_site_clock(self.since)} to {self.on_site_clock(self.due)} "
            f"(times in {self.site.timezone}).",
        ]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)


def _text(summary: DailySummary) -> str:
    lines = [*summary.lines(), "", f"Exceptions: {summary.total}"]
    lines += [f"- {type_name(kind)}: {n}" for kind, n in summary.counts]
    if summary.attachments:
        lines += ["", "Attached:", *(f"- {a.filename}" for a in summary.attachments)]
    else:
        lines += ["", NO_ATTACHMENT]
    return "\n".join(lines) + "\n"


def _html(summary: DailySummary) -> str:
    heading, period = (escape(line) for line in summary.lines())
    rows = "".join(
        f"<tr><td>{escape(type_name(kind))}</td><td align='right'>{n}</td></tr>"
        for kind, n in summary.counts
    )
    table = (
        f"<table cellpadding='4'><tr><th align='left'>Exception</th><th>Count</th></tr>{rows}"
        f"<tr><td><b>Total</b></td><td align='right'><b>{summary.total}</b></td></tr></table>"
    )
    files = (
        "<p>Attached:</p><ul>"
        + "".join(f"<li>{escape(a.filename)}</li>" for a in summary.attachments)
        + "</ul>"
        if summary.attachments
        else f"<p>{escape(NO_ATTACHMENT)}</p>"
    )
    return (
        f"<!DOCTYPE html><html><body style='font-family: sans-serif'><h2>{heading}</h2>"
        f"<p>{period}</p><h3>Exceptions: {summary.total}</h3>{table if rows else ''}"
        f"{files}</body></html>\n"
    )


def daily_message(mailer: Mailer, summary: DailySummary, now: datetime) -> EmailMessage:
    """The daily report mail of a site: dated on the site's clock, a text and an HTML
    summary, the reports attached."""
    site = summary.site
    return mailer.compose(
        list(site.report_emails),
        f"TagTrack daily report: {site.name}, {summary.day.isoformat()}",
        _text(summary),
        summary.attachments,
        html=_html(summary),
        date=now.astimezone(ZoneInfo(site.timezone)),
    )


class DailyJobs:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], settings: Settings) -> None:
        self.sessionmaker = sessionmaker
        self.settings = settings
        self.tick_seconds = settings.daily_tick_seconds

    async def run_due(self, now: datetime, org_id: str | None = None) -> None:
        """Run every job whose daily time has come today and that has not run today (of one
        organization's sites, or of all)."""
        async with self.sessionmaker() as session:
            sites = list(await DailyRepository(session).scheduled_sites(org_id))
        for site in sites:
            due = due_today(site, now)
            if due is None:
                continue
            for job in (self.inventory, self.mail):
                try:
                    await job(site, *due)
                except Exception:  # one site's failure must not stop the others
                    log.exception("daily job failed", job=job.__name__, site=site.id)

    async def inventory(self, site: Site, day: date, due: datetime) -> None:
        async with self.sessionmaker() as session, session.begin():
            daily = DailyRepository(session)
            exceptions = ExceptionRepository(session)
            run_id = await daily.claim(site, INVENTORY, day, due)
            if run_id is None:
                return
            previous = await daily.previous(site, INVENTORY, day)
            if previous is not None:
                read = await daily.read_in_zones(site, previous.time, due)
                for kind, zone, things in inventory_findings(previous.snapshot, read):
                    await exceptions.add(inventory_exception(site, kind, due, zone, things))
            await daily.save_snapshot(site, run_id, await daily.zone_contents(site))

    async def mail(self, site: Site, day: date, due: datetime) -> None:
        async with self.sessionmaker() as session, session.begin():
            daily = DailyRepository(session)
            if await daily.claim(site, MAIL, day, due) is None:
                return
            if not site.report_emails:
                return
            since = daily_time_on(day - timedelta(days=1), site.report_daily_time, site.timezone)
            attachments = await self._attachments(ReportRepository(session), site, since, due)
            counts = await daily.exception_counts(site, since, due)
            summary = DailySummary(site, day, since, due, counts, attachments)
            # Queued with the claim: the report is mailed once, whenever the server takes it.
            outbox = Outbox(session, self.settings)
            await outbox.queue_message(site.org_id, daily_message(outbox.mailer, summary, utcnow()))

    @staticmethod
    async def _attachments(
        reports: ReportRepository, site: Site, since: datetime, due: datetime
    ) -> list[Attachment]:
        runner = ReportRunner(reports)
        attachments: list[Attachment] = []
        names: set[str] = set()
        for config in await reports.emailed(site):
            async with runner.sheet(config, site) as sheet:
                await runner.fill(sheet, config, site, since, due)
                content = await sheet.finish_bytes()
            name = file_name(config.name, config.format)
            extension, media_type = FILE_TYPES[config.format]
            if name in names:
                name = f"{name.removesuffix(extension)} {config.id}{extension}"
            names.add(name)
            attachments.append(Attachment(name, content, media_type))
        return attachments

    async def run(self) -> None:
        while True:
            try:
                await self.run_due(utcnow())
            except Exception:  # the database may be away; try again at the next tick
                log.exception("daily jobs failed")
            await asyncio.sleep(self.tick_seconds)


@asynccontextmanager
async def daily_jobs(
    sessionmaker: async_sessionmaker[AsyncSession], settings: Settings
) -> AsyncIterator[None]:
    """Run the daily jobs in the background when this process runs the background work."""
    jobs = DailyJobs(sessionmaker, settings).run() if settings.processing else None
    async with running(jobs, "daily-jobs"):
        yield
