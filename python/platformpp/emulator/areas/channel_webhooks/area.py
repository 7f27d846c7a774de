"""What the channel webhooks area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

# After threads (36): a webhook's channel and its creator exist when it loads.
AREA = Area("channel_webhooks", routes=routes.routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("channel_webhooks", 37, fixtures.load_channel_webhooks),))
