"""Users: ``/users/@me``, ``/users/{id}``, connections, and the users fixture section."""
