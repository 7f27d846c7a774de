"""The inspector: a web page served at ``/_emulator/ui`` to see and drive the emulated platform (the
world, the live traffic from the event bus, voice calls) and JSON reads under ``/_emulator/inspector``
for what no other admin endpoint shows (docs/emulator.md, "The inspector")."""
