"""What an application's Activities ask of the API: files they upload to share, and the instances the
emulator launched (``LAUNCH_ACTIVITY`` answers)."""
