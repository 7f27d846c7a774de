"""Webhooks: signed event webhooks to the application's URL, with retries."""

from __future__ import annotations

from ...core.area import Area

AREA = Area("webhooks")
