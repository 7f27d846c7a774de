"""The platform's desktop client, as far as games see it: RPC over IPC on a local Unix socket for one
signed-in desktop user (docs/emulator-ipc.md).

``codec`` frames, ``protocol`` the numbers and names, ``connection`` one game's session, ``commands``
what each command does, ``endpoint`` the desktop client (socket, connections, voice settings),
``admin_routes`` its control panel. The app starts it from its lifespan (``lifecycle``)."""
