"""What a processing worker keeps of an organization from one batch to the next.

Loading the rows a batch works on (its things, their open visits, the newest event of each
endpoint, antenna and tag) took a fifth of a batch's time, and consecutive batches mostly
work on the same rows. A worker therefore keeps the rows of its batches as it wrote them,
and the organization's next batch loads only what is not kept.

Kept rows are used only while they are what the database holds:

- every transaction that processes reads of an organization (a worker's batch, a manual
  event) counts one more epoch under the organization's lock, and rows kept at epoch n
  serve only the batch of epoch n + 1: no process ever works from rows another one changed;
- every update names the version (`xmin`) of the row as it was read or last written, so a
  row anything else changed meanwhile (an edit, a sweep, a deletion) fails the batch with
  `StaleRows`, and the worker runs it again from the database.

A worker also starts a batch before the previous one has written its rows (see the worker):
that batch works on copies of the rows as the previous one will write them (`as_written`),
so the writes in flight never see its changes.
"""

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar

from tagtrack.processing.repository import EventRow, FoldKey, ThingRow, VisitRow

Row = TypeVar("Row", ThingRow, EventRow, VisitRow)
_VALUES = {
    kind: attrgetter(*(f.name for f in fields(kind))) for kind in (ThingRow, EventRow, VisitRow)
}


def mark_written(row: Any, version: int) -> None:
    """The row as the database holds it once its batch, of row version `version`, commits."""
    if row.dirty or not row.stored:
        row.version = version
        row.stored = True
        row.dirty = False
        if type(row) is EventRow:
            row.stored_time = row.time


def as_written(row: Row, version: int) -> Row:
    """A copy of the row as its batch, not yet committed, will write it."""
    copy = type(row)(*_VALUES[type(row)](row))
    mark_written(copy, version)
    return copy


# Things (or events) kept at most, for all organizations together: at most about 50 MiB
# (20,000 things, their open visits and 20,000 events: 47 MiB measured with distinct ids).
MAX_KEPT_ROWS = 20_000


@dataclass
class WorkingState:
    epoch: int
    things: dict[str, ThingRow] = field(default_factory=dict)
    # The open visit of each kept thing that has one: a kept thing without one has none.
    visits: dict[str, VisitRow] = field(default_factory=dict)
    # The newest event of each (endpoint, antenna, tag) kept.
    latest: dict[FoldKey, EventRow] = field(default_factory=dict)
    # Things the last batch enrolled, by tag: a batch loaded before that one commits cannot
    # find their tags in the database yet.
    enrolled: dict[str, str] = field(default_factory=dict)

    def followed_by(self, batch: "WorkingState") -> "WorkingState":
        """These rows with a later batch's in their place, within the limit."""
        things = self.things | batch.things
        latest = self.latest | batch.latest
        if max(len(things), len(latest)) > MAX_KEPT_ROWS:
            return batch
        visits = {i: v for i, v in self.visits.items() if i not in batch.things}
        return WorkingState(batch.epoch, things, visits | batch.visits, latest, batch.enrolled)


def continued(kept: WorkingState | None, batch: WorkingState) -> WorkingState:
    """What a worker holds after `batch`, given what it held before (if anything)."""
    return kept.followed_by(batch) if kept is not None else batch


class KeptStates:
    """The working state of each organization a worker processed lately, within the limit
    for all of them together: the least recently processed go first."""

    def __init__(self, max_rows: int = MAX_KEPT_ROWS) -> None:
        self.max_rows = max_rows
        self.states: dict[str, WorkingState] = {}  # least recently kept first

    def take(self, org_id: str) -> WorkingState | None:
        """The organization's state, no longer kept: a batch that fails leaves none."""
        return self.states.pop(org_id, None)

    def keep(self, org_id: str, state: WorkingState) -> None:
        self.states.pop(org_id, None)
        self.states[org_id] = state
        while sum(max(len(s.things), len(s.latest)) for s in self.states.values()) > (
            self.max_rows
        ):
            del self.states[next(iter(self.states))]

    def clear(self) -> None:
        self.states.clear()
