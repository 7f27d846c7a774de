"""Polls of channel messages: votes, the voters of an answer, ending a poll (early or at its expiry on
the emulator clock) with the poll result message, and the vote dispatches."""
