"""Applications: the application object, and the applications fixture section."""
