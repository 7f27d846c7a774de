#include "platformpp/guild.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {

void BindGuild(py::module_& m, py::class_<Client>& client) {
    py::native_enum<ChannelType>(m, "ChannelType", "enum.IntEnum", "The platform's channel types.")
        .value("GuildText", ChannelType::GuildText)
        .value("Dm", ChannelType::Dm)
        .value("GuildVoice", ChannelType::GuildVoice)
        .value("GroupDm", ChannelType::GroupDm)
        .value("GuildCategory", ChannelType::GuildCategory)
        .value("GuildNews", ChannelType::GuildNews)
        .value("GuildStore", ChannelType::GuildStore)
        .value("GuildNewsThread", ChannelType::GuildNewsThread)
        .value("GuildPublicThread", ChannelType::GuildPublicThread)
        .value("GuildPrivateThread", ChannelType::GuildPrivateThread)
        .value("GuildStageVoice", ChannelType::GuildStageVoice)
        .value("GuildDirectory", ChannelType::GuildDirectory)
        .value("GuildForum", ChannelType::GuildForum)
        .value("GuildMedia", ChannelType::GuildMedia)
        .value("Lobby", ChannelType::Lobby)
        .value("EphemeralDm", ChannelType::EphemeralDm)
        .finalize();
    BindLinkedValues(m);

    py::class_<ChannelHandle> handle(m, "ChannelHandle", py::is_final(),
                                     "A channel the Client knows (a lobby's, a direct message conversation's, or a "
                                     "lobby's linked guild channel): a read-only snapshot.");
    handle.def_property_readonly("id", &ChannelHandle::Id, "The channel's id.")
        .def_property_readonly("name", &ChannelHandle::Name, "The guild channel's name; empty otherwise.")
        .def_property_readonly("recipients", &ChannelHandle::Recipients,
                               "The users in it (a lobby's members, a conversation's two participants).")
        .def_property_readonly("type", &ChannelHandle::Type, "The ChannelType.");
    DefHandleMembers(handle);

    py::class_<GuildMinimal> guild(m, "GuildMinimal", py::is_final(), "A guild of the current user: id and name.");
    guild.def(py::init<>(), "An empty guild record.")
        .def_property("id", &GuildMinimal::Id, &GuildMinimal::SetId, "The guild's id.")
        .def_property("name", &GuildMinimal::Name, &GuildMinimal::SetName, "The guild's name.");
    DefHandleMembers(guild);

    py::class_<GuildChannel> channel(m, "GuildChannel", py::is_final(),
                                     "A guild channel: type, position and parent category, as the client shows it.");
    channel.def(py::init<>(), "An empty channel record.")
        .def_property("id", &GuildChannel::Id, &GuildChannel::SetId, "The channel's id.")
        .def_property("name", &GuildChannel::Name, &GuildChannel::SetName, "The channel's name.")
        .def_property("type", &GuildChannel::Type, &GuildChannel::SetType, "The ChannelType.")
        .def_property("position", &GuildChannel::Position, &GuildChannel::SetPosition, "Position within its group.")
        .def_property("parent_id", &GuildChannel::ParentId, &GuildChannel::SetParentId,
                      "The category it belongs to, or None.")
        .def_property("is_linkable", &GuildChannel::IsLinkable, &GuildChannel::SetIsLinkable,
                      "Whether the user may link a lobby to it (text, not NSFW, not linked elsewhere, "
                      "MANAGE_CHANNELS + VIEW_CHANNEL + SEND_MESSAGES).")
        .def_property("is_viewable_and_writeable_by_all_members", &GuildChannel::IsViewableAndWriteableByAllMembers,
                      &GuildChannel::SetIsViewableAndWriteableByAllMembers,
                      "Whether every member of the guild can view it and send messages in it.")
        .def_property("linked_lobby", &GuildChannel::LinkedLobby, &GuildChannel::SetLinkedLobby,
                      "The lobby linked to it, or None.");
    DefHandleMembers(channel);

    m.def(
        "sort_guild_channels_for_display",
        [](std::vector<GuildChannel> channels) {
            SortGuildChannelsForDisplay(channels);
            return channels;
        },
        py::arg("channels"),
        "The channels in the client's display order: no category first, then each category and its channels; "
        "text-like before voice, then by position, then by id.");

    DefCall(
        client, "get_user_guilds",
        [](Client& self, PyCallback<ClientResult, std::vector<GuildMinimal>> callback) {
            self.GetUserGuilds(WrapCallback(std::move(callback), "get_user_guilds"));
        },
        py::arg("callback"), "The current user's guilds: callback(result, guilds).");
    DefCall(
        client, "get_guild_channels",
        [](Client& self, uint64_t guildId, PyCallback<ClientResult, std::vector<GuildChannel>> callback) {
            self.GetGuildChannels(guildId, WrapCallback(std::move(callback), "get_guild_channels"));
        },
        py::arg("guild_id"), py::arg("callback"),
        "The guild's channels the user can see, in display order: callback(result, channels).");
}

}  // namespace platformpp::python
