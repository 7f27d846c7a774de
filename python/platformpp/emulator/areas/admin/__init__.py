"""The emulator's admin API (``/_emulator``): reset, seed, snapshot, clock, faults, limits, logs."""
