// Client's voice members: calls (voice_layer.hpp does the work) and the lobby call info.
#include "client/client_impl.hpp"
#include "client/voice_layer.hpp"
#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

Call Client::StartCall(uint64_t channelId) { return RequireImpl().voice->Start(channelId, nullptr, nullptr); }

Call Client::StartCallWithAudioCallbacks(uint64_t lobbyId, UserAudioReceivedCallback receivedCb,
                                         UserAudioCapturedCallback capturedCb) {
    return RequireImpl().voice->Start(lobbyId, std::move(receivedCb), std::move(capturedCb));
}

void Client::EndCall(uint64_t channelId, EndCallCallback callback) {
    if (!callback) throw ValidationError("callback", "must not be empty");
    RequireImpl().voice->End(channelId, std::move(callback));
}

void Client::EndCalls(EndCallsCallback callback) {
    if (!callback) throw ValidationError("callback", "must not be empty");
    RequireImpl().voice->EndAll(std::move(callback));
}

Call Client::GetCall(uint64_t channelId) { return RequireImpl().voice->Get(channelId); }
std::vector<Call> Client::GetCalls() { return RequireImpl().voice->All(); }

void Client::SetVoiceParticipantChangedCallback(VoiceParticipantChangedCallback cb) {
    RequireImpl().voice->SetParticipantChanged(std::move(cb));
}

bool Client::GetSelfMuteAll() const { return RequireImpl().voice->MuteAll(); }
void Client::SetSelfMuteAll(bool mute) { RequireImpl().voice->SetMuteAll(mute); }
bool Client::GetSelfDeafAll() const { return RequireImpl().voice->DeafAll(); }
void Client::SetSelfDeafAll(bool deaf) { RequireImpl().voice->SetDeafAll(deaf); }

}  // namespace platformpp
