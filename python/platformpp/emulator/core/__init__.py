"""What every area builds on: storage and migrations, the clock, snowflakes, who is calling, error
bodies and request validation, rate limits, injected faults, the request log and the middleware.
Nothing here imports an area, the Gateway or the app."""
