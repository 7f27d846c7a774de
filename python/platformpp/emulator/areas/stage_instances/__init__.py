"""Stage instances: a live stage channel's topic and privacy (create, get, modify, delete), closed
when its last speaker leaves."""
