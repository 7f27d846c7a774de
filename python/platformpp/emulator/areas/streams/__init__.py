"""Go Live streams: a member in a guild voice channel shares a screen; others watch it (Gateway
opcodes 18-22, STREAM_* dispatches, ``self_stream`` in voice states). The media goes through the voice
service, as a call of its own keyed by the stream."""
