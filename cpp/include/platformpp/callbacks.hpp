#pragma once

namespace platformpp {

// Runs, on the calling thread and in the order they happened, every SDK callback queued since the
// last call. Call it once per frame from the game's thread; the SDK never calls user code from its
// own threads. Callbacks queued while it runs wait for the next call.
void RunCallbacks();

// A file descriptor that is readable while callbacks wait for RunCallbacks(), so that an event loop
// (select/poll/epoll, asyncio's add_reader) can run them the moment they arrive instead of polling.
// RunCallbacks() makes it unreadable again. Owned by the SDK: do not read from or close it.
int CallbackWakeupFd();

}  // namespace platformpp
