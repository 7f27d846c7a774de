"""The areas of the platform, each one folder: ``routes.py`` (its HTTP routes), ``store.py`` (its SQL
and domain rules), ``fixtures.py`` (its sections of world files), ``schema/`` (its migrations), and
``area.py`` (its ``AREA``: what the app builder takes from it). ``catalog.py`` lists them all.

A package ``__init__`` here imports nothing: importing one area's store must not load the others'
routes (moto and LocalStack keep their service packages the same way)."""
