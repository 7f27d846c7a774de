"""Which rules a channel's reactions and pins follow: a DM's or group DM's (areas/private_channels),
else a guild channel's (this area). Both modules answer the same calls, so a route (or an admin
route acting as a user) picks the module once and calls it."""

from __future__ import annotations

import sqlite3
from types import ModuleType

from ..private_channels import messages as private_messages
from ..private_channels import pins as private_pins
from ..private_channels import reactions as private_reactions
from . import pins, reactions


def reactions_for(conn: sqlite3.Connection, channel_id: int) -> ModuleType:
    return private_reactions if private_messages.private_channel(conn, channel_id) is not None else reactions


def pins_for(conn: sqlite3.Connection, channel_id: int) -> ModuleType:
    return private_pins if private_messages.private_channel(conn, channel_id) is not None else pins
