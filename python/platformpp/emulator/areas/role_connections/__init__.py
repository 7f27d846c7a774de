"""Role connections: an application's connection metadata records, each user's role connection to
the application, and linked roles (roles whose members must meet an application's requirements)."""
