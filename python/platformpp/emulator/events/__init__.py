"""The emulator's one in-process event bus (``bus.Bus``): areas publish what happened after it
commits; subscribers react. The Gateway is the main subscriber: it turns events that carry an
``audience`` into dispatches for exactly the sessions that may see them."""
