"""Guild scheduled events: create, list, get, modify, delete, interested users; under the dated
creation rule of 2026-02-23."""
