"""An application's own emoji (``/applications/{application_id}/emojis``), usable by its bot anywhere."""
