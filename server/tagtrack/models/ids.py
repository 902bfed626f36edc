"""Ids are 24 lowercase hex characters: 4 bytes of seconds, then 8 random bytes."""

import os
import re
import time

ALL_SITES_ID = "000000000000000000000000"
UNKNOWN_THING_ID = "777777777777777777777777"
ID_PATTERN = re.compile(r"^[0-9a-f]{24}$")


def new_id() -> str:
    return int(time.time()).to_bytes(4, "big").hex() + os.urandom(8).hex()


def is_id(value: str) -> bool:
    # fullmatch: "$" alone would let a trailing newline through.
    return bool(ID_PATTERN.fullmatch(value))
