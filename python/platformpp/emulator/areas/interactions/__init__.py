"""Interactions: a simulated user's commands, context menus, components, autocomplete and modals
delivered to the app (Gateway or signed HTTP), the app's responses and followups, and the admin API
that plays the user."""
