"""A server killed (SIGKILL) while ten readers post at full speed loses no acknowledged read
and counts none twice: readers retry unacknowledged batches after the restart."""

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

from tagtrack.core.db import sync_url
from tests.database import fresh_database
from tests.serve import free_port, reader_key, serve
from tests.waiting import eventually

READERS = 10
READS_PER_BATCH = 5
ADMIN = "durable.admin@example.com"
ADMIN_PASSWORD = "Durable-Ingest-Check-2026"


@dataclass
class Reader:
    """Posts numbered batches as fast as it can; a batch is retried until it gets its 202."""

    number: int
    url: str
    key: str
    stop: threading.Event
    acknowledged: dict[str, list[str]] = field(default_factory=dict)
    retries: int = 0

    def batch(self, n: int) -> tuple[str, list[str]]:
        return f"r{self.number}-b{n}", [
            f"DUR{self.number:02d}{n:06d}{k}" for k in range(READS_PER_BATCH)
        ]

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.key}"}
        with httpx.Client(base_url=self.url, headers=headers, timeout=10) as client:
            n = 0
            while not self.stop.is_set():
                batch_id, tags = self.batch(n)
                while True:
                    try:
                        body = {"batchId": batch_id, "reads": [{"tag": t} for t in tags]}
                        response = client.post("/api/ingest/reads", json=body)
                        if response.status_code == 202:
                            break
                    except httpx.HTTPError:
                        pass
                    self.retries += 1
                    time.sleep(0.05)
                self.acknowledged[batch_id] = tags
                n += 1


def test_a_killed_server_loses_no_acknowledged_read_and_counts_none_twice(tmp_path: Path) -> None:
    port = free_port()
    with fresh_database() as database_url:
        env = {
            "TAGTRACK_DATABASE_URL": database_url,
            "TAGTRACK_DATA_DIR": str(tmp_path),
            "TAGTRACK_ADMIN_EMAIL": ADMIN,
            "TAGTRACK_ADMIN_PASSWORD": ADMIN_PASSWORD,
            # Reads stay in the queue, one row each, where they can be counted.
            "TAGTRACK_PROCESSING": "false",
        }
        stop = threading.Event()
        with serve(env, port=port) as first:
            key = reader_key(first.url, ADMIN, ADMIN_PASSWORD)
            readers = [Reader(n, first.url, key, stop) for n in range(READERS)]
            threads = [threading.Thread(target=r.run, daemon=True) for r in readers]
            for thread in threads:
                thread.start()
            # Killed in full flow: once every reader has had batches acknowledged.
            eventually(lambda: all(len(r.acknowledged) >= 5 for r in readers))
            before_kill = sum(len(r.acknowledged) for r in readers)
            first.process.kill()
            first.process.wait()
            at_kill = [len(r.acknowledged) for r in readers]
        assert before_kill > 0, first.text()
        with serve(env, port=port) as second:
            # Each reader's batch cut off by the kill is retried and acknowledged.
            eventually(
                lambda: all(len(r.acknowledged) > n for r, n in zip(readers, at_kill, strict=True))
            )
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
            assert not any(t.is_alive() for t in threads), second.text()
        with psycopg.connect(sync_url(database_url).replace("+psycopg", "")) as db:
            rows = db.execute(
                "SELECT r ->> 0 AS tag, count(*)"
                " FROM pending_read_batches, jsonb_array_elements(body::jsonb) AS r"
                " WHERE r ->> 0 LIKE 'DUR%' GROUP BY tag"
            ).fetchall()
    stored = dict(rows)
    acknowledged = [tag for r in readers for tags in r.acknowledged.values() for tag in tags]
    assert len(acknowledged) == len(set(acknowledged)) > before_kill * READS_PER_BATCH
    # Every acknowledged read is stored exactly once; nothing else is.
    assert set(stored) == set(acknowledged)
    assert set(stored.values()) == {1}
    # The kill interrupted readers: some batches were retried after the restart.
    assert sum(r.retries for r in readers) > 0
