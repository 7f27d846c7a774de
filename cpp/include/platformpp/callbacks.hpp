#pragma once

namespace platformpp {

// Runs, on the calling thread and in the order they happened, every SDK callback queued since the
// last call. Call it once per frame from the game's thread; the SDK never calls user code from its
// own threads. Callbacks queued while it runs wait for the next call.
void RunCallbacks();

}  // namespace platformpp
