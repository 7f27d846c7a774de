"""Accounts: provisional accounts for external identities, merge and unmerge, bans and the account admin view."""
