"""Ids are 24 lowercase hex characters: 4 bytes of seconds, then 8 random bytes."""

import os
import re
import threading
import time

ALL_SITES_ID = "000000000000000000000000"
UNKNOWN_THING_ID = "777777777777777777777777"
ID_PATTERN = re.compile(r"^[0-9a-f]{24}$")


# Random bytes are drawn from the system this many ids at a time: one system call an id cost
# more than the rest of a new event (processing makes tens of thousands a second).
IDS_PER_DRAW = 512


class _Entropy(threading.local):
    """Each thread's random hex, 16 characters an id, used once each; and the hex of the
    second it last made an id in."""

    def __init__(self) -> None:
        self.hex = ""
        self.at = 0
        self.second = -1
        self.prefix = ""


_entropy = _Entropy()


def _forget_entropy() -> None:
    # A forked process must not hand out the same random bytes as its parent.
    _entropy.hex, _entropy.at = "", 0


os.register_at_fork(after_in_child=_forget_entropy)


def new_id() -> str:
    entropy = _entropy
    at = entropy.at
    if at >= len(entropy.hex):
        entropy.hex, at = os.urandom(8 * IDS_PER_DRAW).hex(), 0
    entropy.at = at + 16
    second = int(time.time())
    if second != entropy.second:
        entropy.second, entropy.prefix = second, second.to_bytes(4, "big").hex()
    return entropy.prefix + entropy.hex[at : at + 16]


def is_id(value: str) -> bool:
    # fullmatch: "$" alone would let a trailing newline through.
    return bool(ID_PATTERN.fullmatch(value))
