// The emulator inspector: plain JavaScript, no build step. Reads the world and the live feed from
// /_emulator/inspector/*, acts through the admin API (docs/emulator.md, "The inspector").
"use strict";

const ADMIN = "/_emulator";
const FEED_KEPT = 500;
const state = { world: null, status: null, feed: [], paused: false, relayBefore: null, pps: null };

// ---------------------------------------------------------------- helpers

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function table(headers, rows, label) {
  if (!rows.length) return h("p", { class: "muted" }, "none");
  return h("table", { "aria-label": label },
    h("thead", {}, h("tr", {}, headers.map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))));
}

function secret() { return sessionStorage.getItem("platformpp-admin-secret"); }

function askSecret() {
  const dialog = $("#secret-dialog");
  if (!dialog.open) dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      sessionStorage.setItem("platformpp-admin-secret", $("#secret-input").value);
      resolve();
    }, { once: true });
  });
}

function headers(extra = {}) {
  const all = { ...extra };
  if (secret()) all.Authorization = `Bearer ${secret()}`;
  return all;
}

async function api(method, path, body) {
  const init = { method, headers: headers(body === undefined ? {} : { "Content-Type": "application/json" }) };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const response = await fetch(ADMIN + path, init);
  if (response.status === 401) {
    await askSecret();
    return api(method, path, body);
  }
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = new Error(`${response.status}: ${data && data.message ? data.message : text}`);
    error.body = data;
    throw error;
  }
  return data;
}

const userById = (id) => (state.world ? state.world.users.find((u) => u.id === id) : null);
function userName(id) {
  const user = userById(id);
  return user ? (user.global_name || user.username) : id;
}
function userLink(id) { return h("a", { href: `#/users/${id}` }, userName(id)); }
function channelById(id) {
  for (const guild of state.world ? state.world.guilds : []) {
    const channel = guild.channels.find((c) => c.id === id);
    if (channel) return { guild, channel };
  }
  return null;
}
const CHANNEL_TYPES = { 0: "text", 2: "voice", 4: "category", 5: "announcement", 10: "announcement thread",
  11: "public thread", 12: "private thread", 13: "stage", 15: "forum", 16: "media" };

// ---------------------------------------------------------------- routing

function route() {
  const hash = location.hash || "#/world";
  const [, first, id] = hash.split("/");
  const view = ["live", "voice", "act"].includes(first) ? first : "world";
  for (const section of $$(".view")) section.hidden = section.id !== `view-${view}`;
  for (const link of $$(".top nav a")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (view === "world") renderWorld(first, id);
  if (view === "live") renderStatus();
  if (view === "voice") renderVoice();
}

// ---------------------------------------------------------------- world

async function loadWorld() {
  state.world = await api("GET", "/inspector/world");
  fillSelects();
  route();
}

function renderTree(selected) {
  const w = state.world;
  const item = (href, label, extra) => h("li", {}, h("a", { href, "aria-current": href === selected ? "true" : null }, label),
    extra ? h("span", { class: "muted" }, " ", extra) : null);
  const channelsOf = (guild) => h("ul", {}, guild.channels.map((c) =>
    item(`#/channels/${c.id}`, (c.type === 4 ? "▸ " : "# ") + c.name, CHANNEL_TYPES[c.type] || `type ${c.type}`)));
  $("#world-tree").replaceChildren(
    h("h2", {}, "Applications"), h("ul", {}, w.applications.map((a) => h("li", {}, a.name, h("span", { class: "muted" }, ` ${a.id}`)))),
    h("h2", {}, "Users"), h("ul", {}, w.users.map((u) => item(`#/users/${u.id}`, u.global_name || u.username, u.bot ? "bot" : ""))),
    h("h2", {}, "Guilds"), h("ul", {}, w.guilds.map((g) => h("li", {},
      h("a", { href: `#/guilds/${g.id}`, "aria-current": `#/guilds/${g.id}` === selected ? "true" : null }, g.name), channelsOf(g)))),
    h("h2", {}, "Lobbies"), h("ul", {}, w.lobbies.length ? w.lobbies.map((l) => item(`#/lobbies/${l.id}`, `Lobby ${l.id}`,
      `${l.members.length} member${l.members.length === 1 ? "" : "s"}`)) : h("li", { class: "muted" }, "none")),
    h("h2", {}, "DMs"), h("ul", {}, w.dms.length ? w.dms.map((d) => h("li", {}, userLink(d.user_ids[0]), " ↔ ",
      userLink(d.user_ids[1]), h("span", { class: "muted" }, ` ${d.message_count}`))) : h("li", { class: "muted" }, "none")));
}

function renderWorld(kind, id) {
  if (!state.world) return;
  const selected = kind && id ? `#/${kind}/${id}` : null;
  renderTree(selected);
  const detail = $("#world-detail");
  if (kind === "guilds") return detail.replaceChildren(...guildDetail(id));
  if (kind === "channels") return channelDetail(id).then((nodes) => detail.replaceChildren(...nodes));
  if (kind === "users") return userDetail(id).then((nodes) => detail.replaceChildren(...nodes));
  if (kind === "lobbies") return lobbyDetail(id).then((nodes) => detail.replaceChildren(...nodes));
  detail.replaceChildren(...overview());
}

function overview() {
  const w = state.world;
  return [
    h("h3", {}, "The world"),
    table(["applications", "users", "guilds", "lobbies", "DM conversations"],
      [[w.applications.length, w.users.length, w.guilds.length, w.lobbies.length, w.dms.length]], "Counts"),
    h("h2", {}, "Applications"),
    table(["id", "name", "bot", "channel obfuscation", "interactions endpoint"], w.applications.map((a) =>
      [h("code", {}, a.id), a.name, a.bot_user_id ? userLink(a.bot_user_id) : "—", a.channel_obfuscation ? "on" : "off",
        a.interactions_endpoint_url || "Gateway"]), "Applications"),
    h("h2", {}, "Application commands"),
    table(["name", "type", "application", "guild"], w.commands.map((c) => [`/${c.name}`, c.type, c.application_id,
      c.guild_id || "global"]), "Application commands"),
    h("h2", {}, "Invites"),
    table(["code", "guild", "channel", "uses", "expires"], w.invites.map((i) => [h("code", {}, i.code), i.guild_id,
      i.channel_id, `${i.uses}/${i.max_uses || "∞"}`, i.expires_at || "never"]), "Invites"),
    h("h2", {}, "Entitlements"),
    table(["id", "sku", "user", "type", "ends"], w.entitlements.map((e) => [e.id, e.sku_id,
      e.user_id ? userLink(e.user_id) : e.guild_id, e.type, e.ends_at || "—"]), "Entitlements"),
  ];
}

function guildDetail(id) {
  const guild = state.world.guilds.find((g) => g.id === id);
  if (!guild) return [h("p", {}, `No guild ${id}.`)];
  const roleName = (roleId) => (guild.roles.find((r) => r.id === roleId) || { name: roleId }).name;
  const overwrite = (o) => h("span", { class: "tag" }, `${o.type === 0 ? "@" + roleName(o.id) : userName(o.id)}`,
    ` +${o.allow} −${o.deny}`);
  return [
    h("h3", {}, `Guild ${guild.name}`), h("p", { class: "muted" }, `id ${guild.id} · owner `, userLink(guild.owner_id)),
    h("h2", {}, "Channels"),
    table(["name", "type", "overwrites", "for bots", "messages"], guild.channels.map((c) => [
      h("a", { href: `#/channels/${c.id}` }, c.name), CHANNEL_TYPES[c.type] || c.type,
      c.permission_overwrites.map(overwrite),
      [c.hidden_from_bots.length ? h("span", { class: "tag warn" }, "hidden from ", c.hidden_from_bots.map(userName).join(", ")) : "visible",
        c.obfuscated_for_bots.length ? h("span", { class: "tag warn" }, "obfuscated") : null],
      c.message_count]), "Channels"),
    h("h2", {}, "Roles"),
    table(["name", "position", "permissions", "managed"], guild.roles.map((r) => [r.name, r.position,
      h("code", {}, r.permissions), r.managed ? "yes" : ""]), "Roles"),
    h("h2", {}, "Members"),
    table(["user", "nick", "roles", "joined"], guild.members.map((m) => [userLink(m.user_id), m.nick || "",
      m.roles.map((r) => h("span", { class: "tag" }, roleName(r))), m.joined_at]), "Members"),
  ];
}

function messageNode(m) {
  const components = [];
  for (const row of m.components || []) {
    for (const c of row.components || [row]) {
      if (c.custom_id) components.push(h("span", { class: "tag" }, `[${c.label || c.type}] `, h("code", {}, c.custom_id)));
    }
  }
  return h("article", { class: "message", "aria-label": `Message ${m.id}` },
    h("div", { class: "meta" }, userLink(m.author_id), ` · ${m.created_at} · `, h("code", {}, m.id),
      m.pinned ? " · pinned" : ""),
    h("div", { class: "content" }, m.content || ""),
    (m.attachments || []).map((a) => h("span", { class: "tag" }, `📎 ${a.filename} (${a.size} B)`)),
    (m.reactions || []).map((r) => h("span", { class: "tag" }, `${r.emoji} ${r.count}`)),
    components);
}

async function channelDetail(id) {
  const found = channelById(id);
  if (!found) return [h("p", {}, `No channel ${id}.`)];
  const messages = await api("GET", `/inspector/channels/${id}/messages`);
  const { guild, channel } = found;
  return [
    h("h3", {}, `#${channel.name}`),
    h("p", { class: "muted" }, `${CHANNEL_TYPES[channel.type] || channel.type} · in `,
      h("a", { href: `#/guilds/${guild.id}` }, guild.name), ` · id ${channel.id}`, channel.topic ? ` · ${channel.topic}` : ""),
    h("h2", {}, `Messages (${messages.length})`),
    messages.length ? h("div", { class: "messages" }, messages.map(messageNode)) : h("p", { class: "muted" }, "no messages"),
  ];
}

async function userDetail(id) {
  const user = userById(id);
  if (!user) return [h("p", {}, `No user ${id}.`)];
  const dms = await api("GET", `/inspector/users/${id}/dms`);
  const guilds = state.world.guilds.filter((g) => g.members.some((m) => m.user_id === id));
  const lobbies = state.world.lobbies.filter((l) => l.members.some((m) => m.user_id === id));
  const sessions = state.status ? state.status.sessions.filter((s) => s.user_id === id) : [];
  return [
    h("h3", {}, `${user.global_name || user.username}`),
    table(["id", "username", "kind", "premium", "provisional"], [[h("code", {}, user.id), user.username,
      user.bot ? "bot" : "user", user.premium_type, user.provisional ? "yes" : "no"]], "User"),
    h("h2", {}, "Guilds"), h("ul", {}, guilds.map((g) => h("li", {}, h("a", { href: `#/guilds/${g.id}` }, g.name)))),
    h("h2", {}, "Lobbies"), lobbies.length ? h("ul", {}, lobbies.map((l) => h("li", {}, h("a", { href: `#/lobbies/${l.id}` }, `Lobby ${l.id}`))))
      : h("p", { class: "muted" }, "none"),
    h("h2", {}, "Gateway sessions"), table(["session", "seq", "connected"], sessions.map((s) =>
      [h("code", {}, s.session_id.slice(0, 8)), s.seq, s.connected ? "yes" : "no"]), "Sessions of the user"),
    h("h2", {}, "Direct messages"),
    dms.length ? h("div", {}, dms.map((m) => h("article", { class: "message" },
      h("div", { class: "meta" }, userLink(m.author_id), " → ", userLink(m.recipient_id), ` · ${m.created_at}`),
      h("div", { class: "content" }, m.content)))) : h("p", { class: "muted" }, "none"),
  ];
}

async function lobbyDetail(id) {
  const lobby = state.world.lobbies.find((l) => l.id === id);
  if (!lobby) return [h("p", {}, `No lobby ${id}.`)];
  const messages = await api("GET", `/inspector/lobbies/${id}/messages`);
  return [
    h("h3", {}, `Lobby ${lobby.id}`),
    h("p", { class: "muted" }, `application ${lobby.application_id} · created ${lobby.created_at}`,
      lobby.linked_channel_id ? [" · linked to ", h("a", { href: `#/channels/${lobby.linked_channel_id}` }, "a channel")] : ""),
    lobby.metadata ? h("pre", { class: "mono" }, JSON.stringify(lobby.metadata, null, 2)) : null,
    h("h2", {}, "Members"), table(["user", "flags", "joined"], lobby.members.map((m) => [userLink(m.user_id), m.flags,
      m.joined_at]), "Lobby members"),
    h("h2", {}, `Messages (${messages.length})`),
    messages.length ? h("div", {}, messages.map(messageNode)) : h("p", { class: "muted" }, "no messages"),
  ];
}

// ---------------------------------------------------------------- live

function describe(item) {
  if (item.kind === "dispatch") {
    const who = item.data.to.map((s) => `${s.kind === "bot" ? "bot" : "user"} ${userName(s.user_id)}`).join(", ");
    const more = item.data.to_count > item.data.to.length ? ` and ${item.data.to_count - item.data.to.length} more` : "";
    return `${item.data.event} · ${item.data.size} B → ${who ? who + more : "no session"}`;
  }
  if (item.kind === "http") {
    const d = item.data;
    return `${d.method} ${d.path} → ${d.status} · ${d.duration_ms} ms`;
  }
  return item.data.name;
}

function feedNode(item) {
  const failed = item.kind === "http" && !(typeof item.data.status === "number" && item.data.status < 400);
  return h("li", { class: `${item.kind}${failed ? " failed" : ""}` },
    h("span", { class: "kind" }, item.kind === "event" ? "event" : item.kind), " ",
    h("span", { class: "muted" }, (item.data.time || "").slice(11, 23)), " ", describe(item),
    h("details", {}, h("summary", {}, "details"), h("pre", {}, JSON.stringify(item.data, null, 2))));
}

function shown(item) {
  if (!$(`#live-${item.kind}`).checked) return false;
  const filter = $("#live-filter").value.trim().toLowerCase();
  return !filter || JSON.stringify(item.data).toLowerCase().includes(filter);
}

function renderFeed() {
  $("#live-feed").replaceChildren(...state.feed.filter(shown).slice(-200).reverse().map(feedNode));
}

function addToFeed(kind, data) {
  const item = { kind, data };
  state.feed.push(item);
  if (state.feed.length > FEED_KEPT) state.feed.splice(0, state.feed.length - FEED_KEPT);
  if (state.paused || !shown(item)) return;
  const list = $("#live-feed");
  list.prepend(feedNode(item));
  while (list.children.length > 200) list.lastChild.remove();
}

function renderStatus() {
  const s = state.status;
  if (!s) return;
  $("#live-sessions").replaceChildren(table(["who", "kind", "intents", "shard", "seq", "last heartbeat", "connected"],
    s.sessions.map((x) => [userLink(x.user_id), x.kind, h("code", {}, x.intents), x.shard ? x.shard.join("/") : "—", x.seq,
      x.last_heartbeat ? x.last_heartbeat.slice(11, 19) : "—", x.connected ? "yes" : "resumable"]), "Gateway sessions"));
  $("#live-ipc").replaceChildren(table(["client id", "application", "authenticated", "subscriptions"],
    s.ipc.map((c) => [h("code", {}, c.client_id), c.application_name, c.authenticated ? "yes" : "no",
      c.subscriptions.join(", ")]), "IPC connections"));
  $("#live-deliveries").replaceChildren(table(["event", "status", "attempts", "last", "created"],
    s.deliveries.slice().reverse().map((d) => [d.event_type, d.status, d.attempts, d.last_status || d.last_error || "—",
      (d.created_at || "").slice(11, 19)]), "Webhook deliveries"));
}

function renderVoice() {
  const voice = state.status && state.status.voice;
  if (!voice) {
    $("#voice-relay").replaceChildren(h("p", { class: "muted" }, "The voice service is not running."));
    $("#voice-calls").replaceChildren();
    return;
  }
  const r = voice.relay;
  const drops = Object.entries(r).filter(([k]) => k.startsWith("dropped_")).map(([k, v]) => `${k.slice(8)} ${v}`);
  const pps = state.pps || { in: 0, out: 0 };
  $("#voice-relay").replaceChildren(table(["packets/s in", "packets/s out", "received", "forwarded", "dropped", "by reason"],
    [[pps.in.toFixed(1), pps.out.toFixed(1), r.received || 0, r.forwarded || 0, r.dropped || 0, drops.join(", ") || "—"]],
    "Relay"));
  $("#voice-calls").replaceChildren(table(["channel", "participants", "DAVE epoch", "DAVE group size"],
    voice.calls.map((c) => [channelById(c.channel_id) ? h("a", { href: `#/channels/${c.channel_id}` },
      channelById(c.channel_id).channel.name) : c.channel_id, c.participants.map((u) => h("span", { class: "tag" }, userName(u))),
      c.dave_epoch ?? "—", c.dave_group_size ?? "—"]), "Voice calls"));
}

function onStatus(data) {
  const before = state.relayBefore;
  if (data.voice) {
    const now = { t: performance.now(), received: data.voice.relay.received || 0, forwarded: data.voice.relay.forwarded || 0 };
    if (before) {
      const seconds = Math.max(0.001, (now.t - before.t) / 1000);
      state.pps = { in: (now.received - before.received) / seconds, out: (now.forwarded - before.forwarded) / seconds };
    }
    state.relayBefore = now;
  }
  state.status = data;
  $("#clock").textContent = data.clock.slice(0, 19).replace("T", " ") + " UTC" + (data.frozen ? " (frozen)" : "");
  if (!$("#view-live").hidden) renderStatus();
  if (!$("#view-voice").hidden) renderVoice();
}

let worldReload = null;
function worldChanged() {
  // Many events at once (a burst of messages) reload the world once.
  if (worldReload) return;
  worldReload = setTimeout(() => { worldReload = null; loadWorld().catch(report); }, 300);
}

async function connectFeed() {
  const badge = $("#connection");
  for (;;) {
    try {
      const response = await fetch(`${ADMIN}/inspector/live`, { headers: headers() });
      if (response.status === 401) { await askSecret(); continue; }
      badge.textContent = "live"; badge.className = "pill ok";
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const kind = /^event: (.*)$/m.exec(block)[1];
          const data = JSON.parse(/^data: (.*)$/m.exec(block)[1]);
          if (kind === "status") onStatus(data);
          else {
            addToFeed(kind, data);
            if (kind === "dispatch" || (kind === "event" && data.name.startsWith("emulator."))) worldChanged();
          }
        }
      }
    } catch (error) {
      // The emulator went away; try again shortly.
    }
    badge.textContent = "reconnecting"; badge.className = "pill bad";
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

// ---------------------------------------------------------------- act

function fillSelects() {
  const w = state.world;
  const keep = (select, options) => {
    const value = select.value;
    select.replaceChildren(...options.map(([v, label]) => h("option", { value: v }, label)));
    if (options.some(([v]) => v === value)) select.value = value;
  };
  const people = w.users.filter((u) => !u.bot).map((u) => [u.id, `${u.global_name || u.username} (${u.id})`]);
  const channels = w.guilds.flatMap((g) => g.channels.filter((c) => c.type !== 4).map((c) => [c.id, `${g.name} #${c.name}`]));
  $$(".user-select").forEach((s) => keep(s, people));
  $$(".channel-select").forEach((s) => keep(s, channels));
  $$(".app-select").forEach((s) => keep(s, w.applications.map((a) => [a.id, a.name])));
  $$(".lobby-select").forEach((s) => keep(s, w.lobbies.map((l) => [l.id, `Lobby ${l.id}`])));
}

function report(result, failed = false) {
  const out = $("#act-result");
  out.className = failed ? "bad" : "";
  out.textContent = result instanceof Error ? result.message : (typeof result === "string" ? result : JSON.stringify(result, null, 2));
}

function act(formId, handler) {
  $(formId).addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const data = Object.fromEntries(new FormData(form).entries());
    try {
      report(await handler(data, event.submitter, form) ?? "done");
    } catch (error) {
      report(error, true);
    }
  });
}

function parseJson(text, field) {
  try { return JSON.parse(text || "null"); } catch (error) { throw new Error(`${field}: not valid JSON`); }
}

function interaction(data, body) {
  return api("POST", "/interactions", { application_id: data.application, user_id: data.user, channel_id: data.channel,
    wait_s: 3, ...body });
}

async function refreshFaults() {
  const faults = await api("GET", "/faults");
  $("#faults-list").replaceChildren(...faults.rules.map((r) => h("li", {}, h("code", {}, `${r.method} ${r.path}`),
    ` → ${r.error_status} at ${r.error_rate}`)));
  return faults;
}

function setupActions() {
  act("#act-post", (d) => api("POST", `/channels/${d.channel}/messages`, { author_id: d.user, content: d.content })
    .then((message) => `posted message ${message.id}`));
  act("#act-react", (d) => api("PUT", `/channels/${d.channel}/messages/${d.message}/reactions`,
    { user_id: d.user, emoji: d.emoji }).then(() => "reacted"));
  act("#act-command", (d) => interaction(d, { action: "command", command_name: d.name, options: parseJson(d.options, "options") || [] }));
  act("#act-click", (d) => interaction(d, { action: "component", message_id: d.message, custom_id: d.custom_id }));
  act("#act-modal", (d) => api("POST", "/interactions", { action: "modal_submit", application_id: d.application,
    user_id: d.user, interaction_id: d.interaction, values: parseJson(d.values, "values") || {}, wait_s: 3 }));
  act("#act-lobby", (d, submitter) => submitter && submitter.name === "leave"
    ? api("DELETE", `/lobbies/${d.lobby}/members/${d.user}`).then(() => "left the lobby")
    : api("PUT", `/lobbies/${d.lobby}/members/${d.user}`));
  act("#act-clock", (d) => api("PUT", "/clock", { now: d.now ? new Date(d.now + "Z").toISOString() : null,
    frozen: d.frozen === "on" }).then((clock) => { onStatus({ ...(state.status || { sessions: [], ipc: [], deliveries: [] }),
      clock: clock.now, frozen: clock.frozen }); return clock; }));
  $("#clock-real").addEventListener("click", () => api("PUT", "/clock", { now: null }).then(report, (e) => report(e, true)));
  act("#act-faults", async (d) => {
    const faults = await api("GET", "/faults");
    faults.rules.push({ path: d.path, method: d.method || "*", error_status: Number(d.status), error_rate: Number(d.rate) });
    await api("PUT", "/faults", faults);
    return refreshFaults();
  });
  $("#faults-clear").addEventListener("click", () => api("PUT", "/faults", { rules: [] }).then(refreshFaults)
    .then(() => report("faults cleared"), (e) => report(e, true)));
  $("#snapshot-export").addEventListener("click", async () => {
    try {
      const snapshot = await api("GET", "/snapshot");
      const link = h("a", { href: URL.createObjectURL(new Blob([JSON.stringify(snapshot)], { type: "application/json" })),
        download: "emulator-snapshot.json" });
      link.click();
      report("snapshot exported");
    } catch (error) { report(error, true); }
  });
  $("#snapshot-import").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      await api("POST", "/snapshot", await file.text());
      report("snapshot imported");
      await loadWorld();
    } catch (error) { report(error, true); }
  });
  $("#reset").addEventListener("click", async () => {
    if (!confirm("Reset the world to how the emulator started?")) return;
    try { await api("POST", "/reset"); report("the world was reset"); await loadWorld(); } catch (error) { report(error, true); }
  });
}

// ---------------------------------------------------------------- start

function setupTheme() {
  const saved = localStorage.getItem("platformpp-inspector-theme");
  if (saved) document.documentElement.dataset.theme = saved;
  $("#theme").addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "light" : "dark";
    localStorage.setItem("platformpp-inspector-theme", document.documentElement.dataset.theme);
  });
}

function setupLive() {
  for (const id of ["#live-filter", "#live-dispatch", "#live-http", "#live-event"]) {
    $(id).addEventListener("input", renderFeed);
  }
  $("#live-pause").addEventListener("change", (event) => { state.paused = event.target.checked; if (!state.paused) renderFeed(); });
  $("#live-clear").addEventListener("click", () => { state.feed = []; renderFeed(); });
}

window.addEventListener("hashchange", route);
setupTheme();
setupLive();
setupActions();
loadWorld().then(() => refreshFaults()).catch((error) => report(error, true));
connectFeed();
