"""Guild invites and their target users: create (with target users from a list or a
streamed CSV, and roles granted on accepting), list, get, delete, accept; INVITE_CREATE / DELETE;
the target-users job; expiry on the emulator clock (INVITE_DELETE). Lobby invites are answered by the same ``/invites/{code}`` routes."""
