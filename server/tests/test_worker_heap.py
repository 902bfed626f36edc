"""An HTTP worker's heap once it is ready to serve."""

import gc
import weakref

from tagtrack.core.workers import WORKER_GC_THRESHOLDS, settle_heap


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_a_settled_worker_freezes_what_it_holds_and_still_collects_request_cycles() -> None:
    before = gc.get_threshold()
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == WORKER_GC_THRESHOLDS

        # A request's garbage cycle is reclaimed by a young collection, without a full one.
        a, b = Node(), Node()
        a.other, b.other = b, a
        collected = weakref.ref(a)
        del a, b
        full_before = gc.get_stats()[2]["collections"]
        keep = [[] for _ in range(WORKER_GC_THRESHOLDS[0] * 2)]
        assert collected() is None
        assert gc.get_stats()[2]["collections"] == full_before
        del keep
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
