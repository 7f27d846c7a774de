"""Monetization: SKUs, entitlements and subscriptions of an application, their Gateway events, the
admin routes and fixture sections that create them, and the subscriptions' transitions on the clock."""
