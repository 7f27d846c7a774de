"""The guild widget: its settings, the public widget.json and the widget.png banner."""
