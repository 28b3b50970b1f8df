/* combat-server web client: one page for the GM, the players and spectators.
 *
 * Vanilla JS, no build step. It speaks the websocket protocol of
 * combat_server/server (schemas in combat_server/schemas): subscribe with the
 * seat token and the last seq seen, send commands with generated command ids,
 * apply pushed events in seq order. The page never computes the fight: the
 * state comes from the server, and so does the maneuver preview (the effective
 * skill before rolling: the server's `preview` message, computed by the rules).
 */
"use strict";

// ------------------------------------------------------------------ constants

const RESENDABLE = new Set(["command", "state_at", "replay", "list_seats"]);
/** The protocol this page speaks (docs/protocol.md): a page left open across a server upgrade says so. */
const PROTOCOL = 5;

// ------------------------------------------------------------------ state of the page

const S = {
  ws: null, welcome: null, token: null, seat: null, fightId: null,
  state: null, stateSeq: 0, viewStale: false, resyncs: 0, lastSeq: 0, log: [], entries: new Map(),
  pending: new Map(), refs: 0, cmds: 0,
  subscribed: false, everSubscribed: false, retry: 0, retryTimer: null, lostAt: 0, catchup: 0,
  viewSeq: null, viewState: null, actKey: "", promptKey: "", disputeKey: "", waitKey: null, rulingDrafts: {},
};

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/** Make an element: h("button", {class: "x", onclick: f}, "text", child, ...). Text is never parsed as HTML. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// ------------------------------------------------------------------ connection

function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
}

function connect() {
  clearTimeout(S.retryTimer);
  let ws;
  try { ws = new WebSocket(wsUrl()); } catch (e) { scheduleReconnect(); return; }
  S.ws = ws;
  setConn("connecting");
  ws.onmessage = (e) => { try { dispatch(JSON.parse(e.data)); } catch (err) { console.error(err); } };
  ws.onopen = () => {
    S.retry = 0;
    setConn(S.token ? "joining" : "online");
    if (S.token) resubscribe();
    else flushPending();
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.subscribed = false;
    setConn("offline");
    if (S.everSubscribed) {
      if (!S.lostAt) S.lostAt = Date.now();
      showBanner("Connection lost. Reconnecting…", "warn");
    }
    failPending((m) => !RESENDABLE.has(m.type), "the connection was lost before the server answered");
    scheduleReconnect();
  };
}

function scheduleReconnect() {
  const delay = Math.min(300 * 2 ** S.retry, 3000);
  S.retry += 1;
  S.retryTimer = setTimeout(connect, delay);
}

function resubscribe() {
  const after = S.lastSeq;
  S.catchup = 0;
  // describe: the server says what this seat can do now (docs/protocol.md, Descriptions).
  request({ type: "subscribe", token: S.token, after, describe: true }, { front: true }).then((m) => {
    S.subscribed = true;
    setConn("live");
    flushPending();
    if (S.everSubscribed) {
      showBanner(`Reconnected: caught up from event ${after}.`, "ok");
      setTimeout(() => { if (S.subscribed) hideBanner(); }, 4000);
      S.lostAt = 0;
    }
    S.everSubscribed = true;
    return m;
  }).catch((err) => {
    if (err.code === "auth/bad_token") {
      toast(deadLinkText(), "error");
      hideBanner();  // no reconnecting with it (a replaced link is closed by the server, then refused)
      S.everSubscribed = false;
      S.token = null;
      S.seat = null;
      history.replaceState(null, "", location.pathname);
      setConn("online");  // connected, and joined to no fight: not "joining…" over the landing page
      showLanding();
    } else if (err.code === "replay/bad_seq") {
      // The server has fewer events than we saw (a different database): start over.
      resetFight();
      resubscribe();
    } else if (err.code !== "client/disconnected") {
      toast(describe(err), "error");
    }
  });
}

/** What a refused link's page says: only the GM's links are printed again on the command line
 * (`combat-server links`, or `serve --demo` restarted on the same database); a player asks the GM.
 * A page that never joined does not know whose link it had. */
function deadLinkText() {
  const links = `"combat-server links ${S.fightId || "FIGHT"}"`;
  const role = S.seat && S.seat.role;
  if (role === "gm") {
    return `This GM link is not valid any more: the fight's links were replaced. ${links} prints new ones ` +
      '(so does restarting "combat-server serve --demo" for the demo fight).';
  }
  if (role) return "This link is not valid any more: ask the GM for a new one.";
  return `This link is not valid any more: ask the GM for a new one (the GM: ${links} prints new links; ` +
    'so does restarting "combat-server serve --demo" for the demo fight).';
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) { S.ws.send(JSON.stringify(msg)); return true; }
  return false;
}

/** Send a message and resolve with its reply (an `error` reply rejects). Kept across reconnects if resendable. */
function request(message, opts = {}) {
  const ref = "r" + (++S.refs);
  const msg = { ...message, ref };
  return new Promise((resolve, reject) => {
    S.pending.set(ref, { msg, resolve, reject, sent: false });
    const sendNow = opts.front || message.type === "create_fight" || S.subscribed || !S.token;
    if (sendNow && send(msg)) S.pending.get(ref).sent = true;
  });
}

function flushPending() {
  for (const p of S.pending.values()) {
    if (p.msg.type === "subscribe") continue;
    if (send(p.msg)) p.sent = true;
  }
}

function failPending(pred, why) {
  for (const [ref, p] of S.pending) {
    if (p.sent && pred(p.msg)) {
      S.pending.delete(ref);
      p.reject({ code: "client/disconnected", message: why });
    }
  }
}

/** Send a fight command. Manual dice: when the server asks for faces, ask the person and send again. */
async function command(type, args = {}, faces) {
  const id = "web-" + Date.now().toString(36) + "-" + (++S.cmds) + "-" + Math.random().toString(36).slice(2, 8);
  const msg = { type: "command", command_id: id, command: type, args };
  if (faces && faces.length) msg.faces = faces;
  try {
    return await request(msg);
  } catch (err) {
    if (err.code === "roll/faces_needed" || (err.code === "roll/bad_faces" && faces && faces.length)) {
      const d = err.details || {};
      const entered = await askDice(d.count || 3, d.sides || 6, err.message);
      if (!entered) throw { code: "client/cancelled", message: "cancelled" };
      const next = (faces || []).slice(0, d.index || 0);
      next.push(entered);
      return command(type, args, next);
    }
    throw err;
  }
}

/** Run a command from a button; show refusals as toasts. */
async function act(type, args, faces, button) {
  if (button) button.disabled = true;
  try {
    return await command(type, args, faces);
  } catch (err) {
    if (err.code !== "client/cancelled") toast(describe(err), "error");
    return null;
  } finally {
    if (button) button.disabled = false;
  }
}

function describe(err) {
  if (!err) return "error";
  return err.message ? `${err.message} (${err.code})` : String(err.code || err);
}

// ------------------------------------------------------------------ incoming messages

function dispatch(m) {
  switch (m.type) {
    case "welcome":
      S.welcome = m;
      if (m.protocol !== PROTOCOL) {  // its view hashes would never match: say why instead of resyncing in silence
        toast(`This page speaks protocol ${PROTOCOL} and the server ${m.protocol}: reload the page.`, "error");
      }
      $("#server-key-label").hidden = m.create_policy !== "key";
      renderRulesets(m.rulesets || []);
      break;
    case "subscribed":
      S.seat = m.seat;
      S.fightId = m.fight_id;
      if (m.last_seq === S.lastSeq) S.lastHash = m.last_hash || "";  // no catch-up follows: live pushes continue it
      takeView(m.last_seq, m.state);
      S.description = m.description || null;
      S.tools = m.tools || [];
      S.commands = m.commands || [];
      showFight();
      break;
    case "description":
      S.description = m.description;
      if (S.state) render();
      break;
    case "events":
      for (const item of m.items) accept(item);
      S.catchup += m.items.length;
      if (m.last) render();
      break;
    case "event":
      if (m.seq > S.lastSeq && m.event.type === "links_reissued") {  // live only: core's record of replaced links
        forgetLinks((m.event.payload || {}).seats || []);
        refreshSeats();
      }
      accept({ seq: m.seq, event: fullRecord(m), explanation: m.explanation });
      takePatch(m);
      render();
      break;
    case "full_view":
      takeView(m.seq, m.state);
      render();
      break;
    case "error":
      if (!m.ref || !S.pending.has(m.ref)) toast(describe(m), "error");
      break;
  }
  const p = m.ref && S.pending.get(m.ref);
  if (p) {
    S.pending.delete(m.ref);
    if (m.type === "error") p.reject(m); else p.resolve(m);
  }
}

/** Take one event into the log, in seq order, never twice. */
function accept(item) {
  if (item.seq <= S.lastSeq) return;
  if (item.seq !== S.lastSeq + 1) console.warn("gap in events", S.lastSeq, item.seq);
  S.lastSeq = item.seq;
  S.lastHash = item.event.hash || "";
  const entry = { seq: item.seq, event: item.event, explanation: item.explanation || "" };
  // The catch-up may come before the state: its first event names the ruleset the log is read with.
  if (item.event.type === "fight_created") S.createdRuleset = (item.event.payload || {}).ruleset || null;
  S.log.push(entry);
  appendLogEntry(entry);
}

// ------------------------------------------------------------------ views and patches (protocol 2, ops of protocol 4)
// A push carries a patch of this seat's view and the CRC-32 of the whole view's canonical JSON
// (docs/protocol.md, "Views and patches"; the same as combat_server/patch.py). A patch that does
// not fit or does not give the hash: ask for the full view, patch nothing until it comes.

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
/** A JSON object (not null, not an array): what a patch path goes through and a view's member may split into. */
const isObject = (o) => o !== null && typeof o === "object" && !Array.isArray(o);

/** doc with pushed ops applied (protocol 4: [path, value] sets an object member, replacing it where it is or
 * adding it at the end; [path] removes one; the same as apply_wire in combat_server/patch.py), or null if one does
 * not fit. Only the objects on the changed paths are copied: doc is left as it was and every other part of the
 * result is the same object as in doc, which is what lets viewHash keep the digests of the parts that stayed.
 * A set of "" (the whole view) is not applied here: the caller asks for the full view. */
function applyPatch(doc, ops) {
  const put = (o, k, value) => Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
  const copies = new Set();  // the objects this call made: changed in place by the later ops
  const mine = (o) => {
    if (copies.has(o)) return o;
    const c = { ...o };  // own members, in their order ("__proto__" too: spread defines, never sets)
    copies.add(c);
    return c;
  };
  let root = doc;
  for (const op of ops) {
    if (!Array.isArray(op) || op.length < 1 || op.length > 2) return null;
    const path = op[0];
    if (typeof path !== "string" || !path.startsWith("/") || !isObject(root)) return null;
    const keys = path.slice(1).split("/").map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    root = mine(root);
    let parent = root;
    for (const k of keys.slice(0, -1)) {
      if (!hasOwn(parent, k) || !isObject(parent[k])) return null;
      const child = mine(parent[k]);
      put(parent, k, child);
      parent = child;
    }
    const last = keys[keys.length - 1];
    if (op.length === 2) put(parent, last, op[1]);
    else if (hasOwn(parent, last)) delete parent[last];
    else return null;
  }
  return root;
}

/** Canonical JSON: keys sorted, no whitespace (JSON.stringify writes numbers and strings as the server does). */
function canonicalJson(v) {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map(canonicalJson).join(",") + "]";
  return "{" + sortedKeys(v).map((k) => JSON.stringify(k) + ":" + canonicalJson(v[k])).join(",") + "}";
}

/** A code unit from U+D800 on: where JavaScript's default order (UTF-16 code units) and the server's (code points,
 * as UTF-8 bytes sort) part: a character past U+FFFF (a surrogate pair) sorts after U+E000-U+FFFF there. */
const HIGH_UNIT = /[\uD800-\uFFFF]/;

/** Object.keys(o) sorted by code point, as the server's canonical JSON sorts them (orjson's OPT_SORT_KEYS): a sheet's
 * skill names may hold an emoji and a full-width letter, and the view hash must still agree (issue 16). */
function sortedKeys(o) {
  const keys = Object.keys(o);
  return keys.some((k) => HIGH_UNIT.test(k)) ? keys.sort(codePointOrder) : keys.sort();
}

function codePointOrder(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xD800 && y >= 0xD800) {  // surrogates (U+10000 on) after U+E000-U+FFFF
      x = x < 0xE000 ? x + 0x2000 : x - 0x800;
      y = y < 0xE000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (zlib's) of the UTF-8 bytes of text, as 8 hex digits: WebCrypto is missing on plain-http pages. */
function crc32hex(text) {
  const bytes = new TextEncoder().encode(text);
  let c = 0xFFFFFFFF;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xFF] ^ (c >>> 8);
  return ((c ^ 0xFFFFFFFF) >>> 0).toString(16).padStart(8, "0");
}

/** Cached digests for viewHash: member name -> [value, its digest]; and for the members of per-combatant entries,
 * member name -> entry key -> [entry, its digest]. */
const VIEW_DIGESTS = { members: new Map(), entries: new Map() };
const VIEW_SPLIT = new Set(["combatants", "derived"]);

/** The view's checksum (protocol 5, docs/protocol.md "The check"; combat_server/patch.py view_hash is the reference):
 * the digest of "{" + its members' digests in key order, joined by commas, + "}"; a member's digest is that of
 * "name":value, but combatants' and derived's text is "name":{ + their entries' digests ("key":value) + }. Each
 * digest is kept while its member or entry is the same object (or an equal string or number): a patched view shares
 * every unchanged part with the one before (applyPatch), so a push hashes what it changed, whatever the fight's
 * size (issue 16). The views must not be changed in place once hashed. */
function viewHash(view) {
  const members = VIEW_DIGESTS.members;
  const parts = sortedKeys(view).map((name) => {
    const value = view[name];
    let hit = members.get(name);
    if (!hit || hit[0] !== value) members.set(name, hit = [value, memberDigest(name, value)]);
    return hit[1];
  });
  for (const name of members.keys()) if (!hasOwn(view, name)) members.delete(name);
  return crc32hex("{" + parts.join(",") + "}");
}

function memberDigest(name, value) {
  const head = JSON.stringify(name) + ":";
  if (!VIEW_SPLIT.has(name) || !isObject(value)) {
    return crc32hex(head + canonicalJson(value));
  }
  let digests = VIEW_DIGESTS.entries.get(name);
  if (!digests) VIEW_DIGESTS.entries.set(name, digests = new Map());
  const parts = sortedKeys(value).map((key) => {
    let hit = digests.get(key);
    if (!hit || hit[0] !== value[key]) digests.set(key, hit = [value[key], crc32hex(JSON.stringify(key) + ":" + canonicalJson(value[key]))]);
    return hit[1];
  });
  for (const key of digests.keys()) if (!hasOwn(value, key)) digests.delete(key);
  return crc32hex(head + "{" + parts.join(",") + "}");
}

/** The record of a live push with what it leaves out put back (the fight, the push's seq, the view's
 * ruleset_version; docs/protocol.md "The pushed record"). This page does not ask for the chain (subscribe.chain,
 * protocol 4), so a push has no command_id, recorded_at or hash: it says what happened (type, payload) and who
 * did it (actor). */
function fullRecord(m) {
  const e = m.event;
  const record = { fight_id: S.fightId, seq: m.seq, type: e.type, payload: e.payload, actor: e.actor,
                   ruleset_version: S.state ? S.state.ruleset_version : "" };
  if (e.hash !== undefined) {
    Object.assign(record, { command_id: e.command_id, recorded_at: e.recorded_at,
                            prev_hash: m.seq === S.lastSeq + 1 ? (S.lastHash || "") : "", hash: e.hash });
  }
  return record;
}

/** A whole view (subscribed, full_view): the base the following pushes patch. */
function takeView(seq, state) {
  if (!S.state || S.viewStale || seq >= S.stateSeq) { S.state = state; S.stateSeq = seq; S.viewStale = false; }
}

function takePatch(m) {
  if (S.viewStale || !S.state || m.seq !== S.stateSeq + 1) return;
  const view = applyPatch(S.state, m.patch || []);
  if (view) {
    S.state = view === S.state ? { ...view } : view;
    S.state.seq = m.seq;  // the view's seq is the push's: no op carries it (protocol 3)
  }
  if (view && viewHash(S.state) === m.view_hash) {
    S.stateSeq = m.seq;
    return;
  }
  S.viewStale = true;
  S.resyncs = (S.resyncs || 0) + 1;
  request({ type: "view" }).catch(() => {});  // its reply is a full_view (dispatch takes it)
}

function resetFight() {
  S.stateSeq = 0; S.viewStale = false;
  VIEW_DIGESTS.members.clear(); VIEW_DIGESTS.entries.clear();
  S.state = null; S.lastSeq = 0; S.lastHash = ""; S.log = []; S.entries.clear(); S.seats = null; S.createdRuleset = null;
  S.viewSeq = null; S.viewState = null; S.actKey = ""; S.promptKey = ""; S.disputeKey = ""; S.waitKey = null; S.rulingDrafts = {};
  $("#log").replaceChildren();
}

// ------------------------------------------------------------------ helpers about the fight

const isGM = () => S.seat && S.seat.role === "gm";
const isSpectator = () => S.seat && S.seat.role === "spectator";
const controls = (cid) => isGM() || (S.seat && S.seat.combatants.includes(cid));
const shown = () => S.viewState || S.state;
const nameOf = (st, cid) => (st && st.combatants[cid] ? st.combatants[cid].name : cid);
const human = (s) => String(s || "").replace(/_/g, " ");

/** The combatants in the roster's order, whatever the order of the view's keys (a live fight keeps
 * them as they joined, one restored from a snapshot sorted by id): the turn order while combat runs,
 * then the others by id. */
function inRosterOrder(st) {
  const all = (st && st.combatants) || {};
  const order = ((st && st.combat && st.combat.order) || []).filter((cid) => hasOwn(all, cid));
  const rest = Object.keys(all).filter((cid) => !order.includes(cid)).sort(codePointOrder);
  return [...new Set(order), ...rest].map((cid) => all[cid]);
}
const signed = (n) => (n >= 0 ? "+" + n : String(n));

/** What this seat's description says of combatant ``cid``: its resource bars, status badges
 * and summary line (the ruleset decides them and what a hidden combatant shows). */
function described(cid) {
  const d = S.description || {};
  const summary = (d.summaries || []).find((x) => x.combatant === cid);
  return { bars: (d.bars || []).filter((b) => b.combatant === cid),
    badges: (d.badges || []).filter((b) => b.combatant === cid), summary: summary ? summary.text : "" };
}

/** The bars a combatant whose numbers this seat may not see still shows, empty: the names of
 * the bars the description gives the others. */
function unknownBars() {
  const seen = new Map();
  for (const b of (S.description && S.description.bars) || []) if (!seen.has(b.name)) seen.set(b.name, { name: b.name, label: b.label });
  return [...seen.values()];
}

const TONE_ORDER = ["info", "good", "warn", "bad", "grave"];
/** The worst tone among ``items`` (badges), or "". */
const worstTone = (items) => items.reduce((w, b) => (TONE_ORDER.indexOf(b.tone) > TONE_ORDER.indexOf(w) ? b.tone : w), "");

/** A resource bar: ``b`` from the description (value, max, thresholds with their meaning); ``value``
 * overrides the live value (the past view shows the value of the time). */
function bar(b, value) {
  const v = value === undefined ? b.value : value;
  const known = typeof v === "number" && typeof b.max === "number" && b.max > 0;
  const pct = known ? Math.max(0, Math.min(100, (v / b.max) * 100)) : 0;
  const reached = known ? (b.thresholds || []).filter((t) => v <= t.at_most) : [];
  const at = reached.length ? reached[reached.length - 1] : null;
  return h("div", { class: `bar ${b.name}` + (at ? ` tone-${at.tone}` : ""), title: at ? `${at.meaning} (${at.rule})` : null },
    h("span", { class: "bar-label" }, b.label),
    h("span", { class: "bar-track", role: "meter", "aria-label": b.label, "aria-valuemin": 0,
      "aria-valuemax": known ? b.max : null, "aria-valuenow": known ? v : null },
      h("span", { class: "bar-fill", style: `width:${pct}%` })),
    h("span", { class: "bar-num" }, known ? `${v}/${b.max}` : "?"));
}

function ruleText(text) {
  // Turn rule ids (G-36, A-10, R-21) into small badges that open the rule's text; everything else stays text.
  const out = [];
  const re = /\b([A-Z]-\d{2})\b/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(ruleRef(m[1]));
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

// ------------------------------------------------------------------ rendering

function render() {
  if (!S.state) return;
  const st = shown();
  const attention = attentionTitle();
  document.title = attention + (S.state.title || "Fight") + " · combat-server";
  chime(attention);
  $("#fight-title").textContent = S.state.title || `Fight ${S.fightId}`;
  const badge = $("#seat-badge");
  badge.hidden = !S.seat;
  if (S.seat) {
    const who = S.seat.role === "player" ? S.seat.combatants.map((c) => nameOf(S.state, c)).join(", ") : "";
    badge.textContent = S.seat.role === "gm" ? "GM" : S.seat.role === "spectator" ? "Spectator" : `Player · ${who}`;
    badge.className = "badge role-" + S.seat.role;
  }
  renderTurn(st);
  renderRoster(st);
  renderImport();
  renderPast();
  renderPrompts();
  renderWaits();
  renderAct();
  renderGM();
  renderSheetEditor();
  renderTools();
  renderScrubber();
  markUndone();
  renderQuietToggle();
}

function renderTurn(st) {
  const box = $("#turn");
  const combat = st.combat;
  if (st.status === "ended") {
    box.replaceChildren(h("p", { class: "big" }, "The fight is over."), st.ended_reason ? h("p", { class: "hint" }, st.ended_reason) : null);
    return;
  }
  if (!combat) {
    box.replaceChildren(h("p", { class: "hint" }, isGM() ? "Setting up: add combatants, hand out links, then start combat." : "Waiting for the GM to start combat."));
    return;
  }
  const cur = combat.current;
  const mine = controls(cur) && !isGM();
  box.replaceChildren(
    h("p", { class: "turn-now" + (mine ? " mine" : "") },
      h("span", { class: "round" }, `Round ${combat.round}`), " ",
      h("b", { id: "current-name" }, nameOf(st, cur)), mine ? " — your turn!" : "'s turn",
      combat.phase && combat.phase !== "maneuver" ? h("span", { class: "hint" }, ` (${human(combat.phase)})`) : null),
    h("ol", { class: "order", "aria-label": "Turn order" },
      combat.order.map((cid) => {
        const tone = worstTone(described(cid).badges);
        return h("li", { class: (cid === cur ? "current " : "") + (tone === "grave" || tone === "bad" ? "down" : ""), "aria-current": cid === cur ? "step" : null },
          nameOf(st, cid));
      })));
}

function renderRoster(st) {
  const ul = $("#roster");
  const cur = st.combat && st.combat.current;
  const past = S.viewSeq !== null;
  const items = inRosterOrder(st).map((c) => {
    const { bars, badges, summary } = described(c.id);
    const tone = worstTone(badges);
    // In the past view the bars show the values of the time when the condition has them by name.
    const then = (b) => (past && typeof (c.condition || {})[b.name] === "number" ? c.condition[b.name] : undefined);
    return h("li", { class: `combatant side-${c.side}` + (c.id === cur ? " current" : "") + (tone ? ` tone-${tone}` : ""),
      dataset: { cid: c.id } },
      h("div", { class: "c-head" },
        h("span", { class: "c-name" }, c.name),
        h("span", { class: "side" }, c.side.toUpperCase()),
        c.hidden ? h("span", { class: "tag" }, "hidden") : null,
        S.seat && S.seat.combatants.includes(c.id) ? h("span", { class: "tag you" }, "you") : null,
        c.id === cur ? h("span", { class: "tag turn" }, "turn") : null,
        isGM() && S.viewSeq === null ? h("button", { type: "button", class: "link hide-toggle",
          title: c.hidden ? "let players and spectators see this sheet" : "players and spectators see only the name and visible condition",
          onclick: (ev) => act("update_combatant", { id: c.id, hidden: !c.hidden }, undefined, ev.currentTarget) },
          c.hidden ? "Show sheet" : "Hide sheet") : null,
        rosterTools(c)),
      ...(bars.length ? bars.map((b) => bar(b, then(b))) : unknownBars().map((b) => bar(b, null))),
      summary ? h("div", { class: "c-stats hint" }, summary) : null,
      statCard(c.id),
      badges.length ? h("ul", { class: "chips", "aria-label": "status" }, badges.map((b) =>
        h("li", { class: `chip tone-${b.tone}`, title: [b.rule, b.lasts].filter(Boolean).join(": ") || null }, b.label,
          b.rule && ruleInfo(b.rule) ? [" ", ruleRef(b.rule)] : null))) : null);
  });
  ul.replaceChildren(...items);
  if (!items.length) ul.replaceChildren(h("li", { class: "hint" }, "No combatants yet."));
}

function renderPast() {
  const bar = $("#past-bar");
  bar.hidden = S.viewSeq === null;
  document.body.classList.toggle("viewing-past", S.viewSeq !== null);
  if (S.viewSeq !== null) {
    const e = S.entries.get(S.viewSeq);
    $("#past-text").textContent = `Viewing the fight as it was after event #${S.viewSeq}` +
      (e ? ` — ${e.data.explanation.replace(/\.\s*$/, "")}` : "") + ". Actions are paused." + waitingForMe();
  }
}

/** While the past is shown, what the live fight is waiting for from this seat (it would be hidden otherwise). */
function waitingForMe() {
  const st = S.state;
  if (!st || isSpectator()) return "";
  const mine = (st.prompts || []).filter((p) => p.kind !== "dispute" && p.combatant && S.seat && S.seat.combatants.includes(p.combatant));
  if (mine.length) return ` Live, the table is waiting for you: ${mine[0].text || human(mine[0].kind)}.`;
  const cur = st.combat && st.combat.current;
  if (st.status === "active" && cur && S.seat && S.seat.combatants.includes(cur)) return ` Live, it is ${nameOf(st, cur)}'s turn: yours.`;
  return "";
}

// ---- prompts: defence, rolls, disputes

function renderPrompts() {
  const box = $("#prompts");
  const st = S.state;
  const open = S.viewSeq !== null ? [] : (st.prompts || []).filter((p) => p.kind !== "dispute");
  // The answers come in the seat's description (pushed just after the event): part of the key.
  const key = open.map((p) => p.id + ":" + controls(p.combatant) + ":" + describedAnswers(p.id).map((a) => a.label).join(","))
    .join("|") + "#" + (isSpectator() ? "s" : "");
  if (key === S.promptKey) return;
  S.promptKey = key;
  box.replaceChildren(...open.map((p) => promptCard(p, st)));
}

function diceInputs(count, sides, label) {
  const wrap = h("fieldset", { class: "dice-entry" }, h("legend", {}, label || `Your dice (${count}d${sides})`));
  for (let i = 0; i < count; i++) {
    wrap.append(h("label", { class: "die" }, h("span", { class: "sr" }, `die ${i + 1}`),
      h("input", { type: "number", min: 1, max: sides, required: true, inputmode: "numeric", class: "die-input", "aria-label": `die ${i + 1} of ${count}` })));
  }
  return wrap;
}

function readDice(root) {
  const vals = $$(".die-input", root).map((i) => Number(i.value));
  if (!vals.length) return null;
  if (vals.some((v) => !Number.isInteger(v) || v < 1)) return false;
  return [vals];
}

const manual = () => S.state && S.state.dice_mode === "manual";

function modList(entry) {
  const mods = (entry && entry.modifiers) || [];
  if (!mods.length) return "";
  return mods.map((m) => `${signed(m.value)} ${m.reason}${m.rule ? ` (${m.rule})` : ""}`).join(", ");
}

/** Own: this seat should answer (its combatant, or an NPC for the GM). The GM may still answer for a PC. */
function ownsTurn(cid) {
  if (!S.seat || isSpectator() || !cid) return isGM();
  if (S.seat.combatants.includes(cid)) return true;
  const c = S.state && S.state.combatants[cid];
  return isGM() && !!c && c.side !== "pc";
}

function promptCard(p, st) {
  const mine = ownsTurn(p.combatant);
  const card = h("div", { class: `prompt prompt-${p.kind}` + (mine ? " mine" : ""), dataset: { prompt: p.id } },
    h("p", { class: "prompt-text" }, ruleText(p.text)));
  if (!mine) {
    card.append(h("p", { class: "hint" }, `Waiting for ${nameOf(st, p.combatant)}.`));
    if (!controls(p.combatant) || isSpectator()) return card;
    const inner = h("details", { class: "gm-override" }, h("summary", {}, `Answer for ${nameOf(st, p.combatant)} as GM`));
    card.append(inner);
    fillPrompt(inner, p, st);
    return card;
  }
  fillPrompt(card, p, st);
  return card;
}

/** The ready-made answers of prompt ``id`` in this seat's description (empty until it arrives). */
function describedAnswers(id) {
  const found = ((S.description && S.description.prompts) || []).find((x) => x.id === id);
  return found ? found.answers : [];
}

function fillPrompt(card, p, st) {
  const o = p.options || {};
  if (p.kind !== "roll") {
    // Any other prompt (a defence, ...): the rules' ready-made answers (the description's) and their numbers.
    const answers = describedAnswers(p.id);
    const rolled = answers.find((a) => diceOf(a.dice));
    const dice = manual() && rolled ? diceInputs(...diceOf(rolled.dice), `Your roll (${rolled.dice})`) : null;
    const choices = h("div", { class: "defences" });
    for (const a of answers) {
      const btn = h("button", { type: "button", class: "defence primary", dataset: { defense: a.args.defense || "" },
        onclick: async () => {
          let faces;
          if (dice && a.dice) { faces = readDice(card); if (faces === false) { toast("Enter every die first (1 to 6).", "error"); return; } }
          await act(a.command, a.args, faces, btn);
        } },
        h("span", { class: "d-name" }, a.label),
        a.number !== null ? h("span", { class: "d-num", title: `roll this or less on ${a.dice || "3d6"}` }, String(a.number)) : null);
      choices.append(h("div", { class: "defence-choice" }, btn, a.number !== null && a.help ? h("span", { class: "hint" }, ruleText(a.help)) : null));
    }
    if (!answers.length) choices.append(h("p", { class: "hint" }, "Getting the choices…"));
    if (dice) card.append(dice);
    card.append(choices);
  } else {
    const count = o.count ?? 3, sides = o.sides || 6;  // count 0: nothing to roll (V-59's maximum damage)
    const dice = manual() && count ? diceInputs(count, sides, `Your ${human(o.purpose)} roll (${count}d${sides})`) : null;
    const btn = h("button", { type: "button", class: "primary roll-btn", onclick: async () => {
      let faces;
      if (dice) { faces = readDice(card); if (faces === false) { toast("Enter every die first.", "error"); return; } }
      await act("roll", { prompt: p.id }, faces, btn);
    } }, dice ? "Use these dice" : !count ? "Apply" + (o.purpose ? ` ${human(o.purpose)}` : "")
      : `Roll ${count}d${sides === 6 ? "" : sides}` + (o.purpose ? ` for ${human(o.purpose)}` : ""));
    if (dice) card.append(dice);
    card.append(h("div", { class: "row" }, btn));
  }
}

// ---- the maneuver form (own turn)

function renderAct() {
  const box = $("#act");
  const st = S.state;
  const combat = st.combat;
  const cur = combat && combat.current;
  const blocking = (st.prompts || []).some((p) => p.kind !== "dispute");
  const canAct = S.viewSeq === null && !isSpectator() && st.status === "active" && combat && (combat.phase === undefined || combat.phase === "maneuver")
    && !combat.interrupted_by && controls(cur) && !blocking;
  // The actions come in the seat's description, pushed just after the event: a combatant added
  // mid-turn changes their targets, so the whole of them is part of the key.
  const offered = canAct ? JSON.stringify(actionsOf(cur)) : "";
  // What the fight waits for is the ruleset's sentence (the description's ``waiting_for``: whose turn, or that
  // nobody can act and the GM must end or mend the fight): part of the key.
  const waiting = !canAct && S.viewSeq === null && st.status === "active" && !blocking
    ? ((S.description && S.description.waiting_for) || "") : "";
  const key = canAct ? `${cur}:${combat.round}:${st.turn_start_seq}:${offered}` : (blocking ? "prompt" : "idle:" + (cur || "") + st.status + (S.viewSeq !== null) + waiting);
  $("#act-h").textContent = !canAct ? "Actions" : !ownsTurn(cur) ? `${nameOf(st, cur)}'s turn` : isGM() ? `${nameOf(st, cur)} acts (you run this NPC)` : `Your turn: ${nameOf(st, cur)}`;
  if (key === S.actKey) { if (canAct) updatePreview(); return; }
  S.actKey = key;
  if (canAct && !actionsOf(cur).length) {  // the description for this turn is on its way
    S.actKey = "";
    box.replaceChildren(h("p", { class: "hint" }, "Getting the choices…"));
    return;
  }
  if (!canAct) {
    let msg = "";
    if (S.viewSeq !== null) msg = "You are looking at the past. Go back to live to act.";
    else if (isSpectator()) msg = "You are watching this fight.";
    else if (st.status === "setup") msg = isGM() ? "Add combatants below, then start combat." : "The fight has not started yet.";
    else if (st.status === "ended") msg = "The fight is over.";
    else if (blocking) msg = "";
    else if (waiting) msg = waiting;
    else if (combat) msg = `Waiting for ${nameOf(st, cur)} to act.`;
    box.replaceChildren(msg ? h("p", { class: "hint" }, msg) : "");
    return;
  }
  const before = $("#maneuver-form", box);
  const kept = before && key.startsWith(`${cur}:${combat.round}:${st.turn_start_seq}:`) ? formValues(before) : null;
  const wasOpen = !!$("details.gm-override[open]", box);
  if (ownsTurn(cur)) box.replaceChildren(maneuverForm(st, cur));
  else box.replaceChildren(h("p", { class: "hint" }, `Waiting for ${nameOf(st, cur)}'s player.`),
    h("details", { class: "gm-override", open: wasOpen && kept ? true : undefined }, h("summary", {}, `Act for ${nameOf(st, cur)} as GM`), maneuverForm(st, cur)));
  if (kept) restoreForm($("#maneuver-form", box), kept);
  updatePreview();
}

/** What the user has typed and chosen in a form, to carry it over when the form is rebuilt. */
function formValues(form, onlyTouched = false) {
  return $$("input, select", form).filter((el) => !onlyTouched || el.dataset.touched)
    .map((el) => [el.name, el.type === "radio" ? (el.checked ? el.value : null) : el.value])
    .filter(([n, v]) => n && v !== null);
}

/** Put ``values`` back: radios first (a maneuver fills its option list on change), then the rest. */
function restoreForm(form, values) {
  const put = (radios) => {
    for (const [name, value] of values) {
      for (const el of $$(`[name="${name}"]`, form)) {
        if ((el.type === "radio") !== radios) continue;
        if (radios) el.checked = el.value === value;
        else if (el.tagName !== "SELECT" || $$("option", el).some((o) => o.value === value)) {
          el.value = value;
          el.dataset.touched = "1";
        }
      }
    }
    form.dispatchEvent(new Event("change"));
  };
  put(true);
  put(false);
}

/** The actions of the seat's description that ``cid`` takes: its turn's (while current) or
 * those it may take on another's turn (a held action); the rules decide which are open. */
function actionsOf(cid) {
  return ((S.description && S.description.actions) || []).filter((a) => a.combatant === cid);
}

/** The value a choice field holds: the choice's own JSON value (a select only holds text). */
function fieldValue(field, el) {
  if (field.type === "choice") {
    const c = field.choices.find((x) => String(x.value) === el.value);
    return c ? c.value : el.value;
  }
  if (field.type === "integer") return el.value === "" ? null : Number(el.value);
  if (field.type === "boolean") return el.checked;
  return el.value.trim();
}

/** An input for ``field`` (rules/describe.py Field): a select of its choices, a number, text or a box. */
function fieldInput(field, idPrefix) {
  const id = idPrefix + field.name;
  let input;
  if (field.type === "choice") {
    input = h("select", { name: field.name, id }, field.choices.map((c) =>
      h("option", { value: String(c.value), title: c.help || null }, c.help ? `${c.label}: ${c.help}` : c.label)));
    if (field.default !== null && field.default !== undefined) input.value = String(field.default);
  } else if (field.type === "integer") {
    input = h("input", { name: field.name, id, type: "number", min: field.minimum, max: field.maximum, value: field.default ?? "" });
  } else if (field.type === "boolean") {
    input = h("input", { name: field.name, id, type: "checkbox", checked: field.default ? true : undefined });
  } else {
    input = h("input", { name: field.name, id, maxlength: 200, value: field.default ?? "" });
  }
  return h("div", { class: "field", dataset: { field: field.name }, title: [field.help, field.rule].filter(Boolean).join(" ") || null },
    h("label", { for: id }, field.label), input);
}

/** Show only the fields whose ``when`` holds (a field only for some values of another), and of a choice
 * field only the choices whose own ``when`` holds (a choice open only with some value of another); a choice that
 * closes gives way to the first open one. Fields are taken in order, so a later one sees the new value. */
function applyWhen(root, action) {
  const holds = (when) => Object.entries(when || {}).every(([name, allowed]) => {
    const other = action.fields.find((x) => x.name === name);
    const el = root.querySelector(`[name="${name}"]`);
    return other && el && allowed.some((v) => String(v) === String(fieldValue(other, el)));
  });
  for (const f of action.fields) {
    const box = $(`[data-field="${f.name}"]`, root);
    if (!box) continue;
    box.hidden = !holds(f.when);
    const el = f.type === "choice" && f.choices.some((c) => c.when) ? root.querySelector(`[name="${f.name}"]`) : null;
    if (!el) continue;
    f.choices.forEach((c, i) => { const open = holds(c.when); el.options[i].hidden = !open; el.options[i].disabled = !open; });
    if (el.selectedIndex < 0 || el.options[el.selectedIndex].disabled) {
      const first = [...el.options].findIndex((o) => !o.disabled);
      if (first >= 0) el.selectedIndex = first;
    }
  }
}

/** The command's args: the action's own plus its shown fields' values. */
function actionArgs(root, action) {
  const args = { ...action.args };
  for (const f of action.fields) {
    const box = $(`[data-field="${f.name}"]`, root);
    const el = root.querySelector(`[name="${f.name}"]`);
    if (!box || box.hidden || !el) continue;
    const v = fieldValue(f, el);
    if (v === null || (v === "" && !f.required)) continue;
    args[f.name] = v;
  }
  return args;
}

/** "3d6" -> [3, 6]. */
function diceOf(text) {
  const m = /^(\d+)d(\d+)$/.exec(text || "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Actions a combatant this seat runs may take on someone else's turn (G-34: a held action),
 * each a card built from the description's fields. */
function renderWaits() {
  const box = $("#waits");
  const st = S.state;
  const combat = st.combat;
  const blocking = (st.prompts || []).some((p) => p.kind !== "dispute");
  const live = S.viewSeq === null && !isSpectator() && st.status === "active" && combat && !blocking;
  const actions = !live ? [] : ((S.description && S.description.actions) || [])
    .filter((a) => a.combatant && a.combatant !== combat.current);
  const key = JSON.stringify(actions);
  if (key === S.waitKey) return;
  S.waitKey = key;
  box.replaceChildren(...actions.map((a) => actionCard(a, "card wait-card")));
}

/** A card for one action: its help and rule ids, an input per field, and its button. */
function actionCard(action, cls) {
  const fields = h("div", { class: "row wrap" }, ...action.fields.map((f) => fieldInput(f, `a-${action.id}-`)));
  const go = h("button", { type: "button", class: "primary" }, action.label);
  const card = h("div", { class: cls, dataset: { cid: action.combatant || "", action: action.id } },
    h("p", {}, action.help, " ", ...(action.rules || []).flatMap((r) => ruleText(r))), fields, h("div", { class: "row" }, go));
  card.addEventListener("change", () => applyWhen(card, action));
  applyWhen(card, action);
  go.onclick = () => act(action.command, actionArgs(card, action), undefined, go);
  return card;
}

/** The maneuver form: one choice per action the description opens to ``cid`` this turn, and the
 * chosen action's fields (its targets, weapons and options, as the rules list them). */
function maneuverForm(st, cid) {
  const actions = actionsOf(cid);
  const form = h("form", { id: "maneuver-form", class: "maneuver-form", autocomplete: "off" },
    h("fieldset", { class: "maneuvers" }, h("legend", {}, "Maneuver"),
      h("div", { class: "maneuver-grid" }, actions.map((a, i) => h("label", { class: "maneuver-choice" },
        h("input", { type: "radio", name: "maneuver", value: a.id, checked: i === 0 }),
        h("span", { class: "m-name" }, a.label), h("span", { class: "m-help" }, a.help))))),
    h("div", { id: "action-fields" }),
    h("div", { id: "preview", class: "preview", "aria-live": "polite" }),
    h("div", { id: "attack-dice" }),
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "go-btn" }, "Go")));
  form.addEventListener("change", updatePreview);
  form.addEventListener("input", (e) => { if (e.target.name !== "maneuver") updatePreview(); });
  form.addEventListener("submit", (e) => { e.preventDefault(); submitManeuver(form, cid); });
  return form;
}

/** The action chosen in the form (the first offered until one is chosen). */
function formAction(form) {
  const actions = actionsOf(S.state.combat.current);
  const r = $("input[name=maneuver]:checked", form);
  return (r && actions.find((a) => a.id === r.value)) || actions[0];
}

/** Build the chosen action's fields, keeping what was typed or chosen where the new fields take it. */
function showFields(form, action) {
  const box = $("#action-fields", form);
  if (box.dataset.for === action.id) return;
  const kept = formValues(box);
  box.replaceChildren(...action.fields.map((f) => fieldInput(f, "mf-")));
  box.dataset.for = action.id;
  for (const [name, value] of kept) {
    const el = box.querySelector(`[name="${name}"]`);
    if (el && (el.tagName !== "SELECT" || $$("option", el).some((o) => o.value === value))) el.value = value;
  }
}

/** Show the number the rules compute for the action as the form stands (the server's `preview`:
 * nothing is rolled or logged), so the page never re-implements the modifiers. Replies to an
 * older form state are ignored. */
function showPreview(form, action, args) {
  const preview = $("#preview", form);
  const token = (S.previewSeq = (S.previewSeq || 0) + 1);
  request({ type: "preview", command: action.command, args }).then((p) => {
    if (token !== S.previewSeq || !preview.isConnected) return;
    const mods = (p.modifiers || []).map((x) => `, ${signed(x.value)} ${x.reason} (${x.rule})`).join("");
    preview.replaceChildren(
      h("div", { class: "eff" }, h("span", { class: "eff-label" }, "Effective skill"),
        h("span", { class: "eff-num", id: "effective-skill" }, String(p.target))),
      h("p", { class: "hint" }, ruleText(`${p.base_reason} ${p.base}${mods}${p.cap ? ` (${p.cap})` : ""}. ` +
        `Roll ${p.target} or less on ${action.dice}` + (args.target ? ` against ${nameOf(S.state, args.target)}.` : "."))));
  }).catch((err) => {
    if (token !== S.previewSeq || !preview.isConnected) return;
    preview.replaceChildren(h("p", { class: "hint warn" }, describe(err)));
  });
}

function updatePreview() {
  const form = $("#maneuver-form");
  if (!form) return;
  const action = formAction(form);
  if (!action) return;
  showFields(form, action);
  applyWhen(form, action);
  const args = actionArgs(form, action);
  const preview = $("#preview", form);
  const diceBox = $("#attack-dice", form);
  const complete = action.fields.every((f) => !f.required || args[f.name] !== undefined);
  if (action.rolls && complete) {
    showPreview(form, action, args);
  } else {
    S.previewSeq = (S.previewSeq || 0) + 1;
    preview.replaceChildren(h("p", { class: "hint" }, action.help || ""));
  }
  const dice = diceOf(action.dice);
  const wantDice = manual() && action.rolls && dice;
  if (wantDice && diceBox.dataset.dice !== action.dice) {
    diceBox.replaceChildren(diceInputs(dice[0], dice[1], `Your roll (${action.dice})`));
    diceBox.dataset.dice = action.dice;
  }
  if (!wantDice) { diceBox.replaceChildren(); diceBox.dataset.dice = ""; }
  $("#go-btn", form).textContent = action.rolls ? (manual() ? `${action.label} with these dice` : `Roll: ${action.label}`)
    : `Do it: ${action.label}`;
}

async function submitManeuver(form, cid) {
  const action = formAction(form);
  if (!action) return;
  let faces;
  if (manual() && action.rolls && diceOf(action.dice)) {
    faces = readDice(form);
    if (faces === false) { toast("Enter every die first.", "error"); return; }
  }
  await act(action.command, actionArgs(form, action), faces, $("#go-btn", form));
}

// ---- the GM panel

/** The actions the description gives the GM that are nobody's turn (start combat, call for a
 * check ...): a card each, built from their fields. Not while looking at the past. */
function renderGMActions() {
  const box = $("#gm-actions");
  const actions = S.viewSeq !== null ? [] : ((S.description && S.description.actions) || []).filter((a) => !a.combatant);
  const key = JSON.stringify(actions);
  if (key === S.gmActionsKey) return;
  S.gmActionsKey = key;
  box.replaceChildren(...actions.map((a) => actionCard(a, "gm-action")));
  box.hidden = !actions.length;
}

function renderGM() {
  const card = $("#gm-card");
  card.hidden = !isGM();
  if (!isGM()) return;
  const st = S.state;
  renderGMActions();
  // Setup blocks open while setting up, and fold away once (when combat starts) to leave room for play.
  const phase = st.status === "setup" ? "setup" : "play";
  if (S.gmPhase !== phase) {
    S.gmPhase = phase;
    $("#gm-setup").open = phase === "setup";
    $("#gm-seats").open = phase === "setup";
  }
  // Seat buttons: one per PC (and NPC on demand), one for spectators.
  const btns = $("#seat-buttons");
  const want = inRosterOrder(st).map((c) => c.id + c.name).join("|");
  if (btns.dataset.key !== want) {
    btns.dataset.key = want;
    btns.replaceChildren(
      ...inRosterOrder(st).filter((c) => c.side === "pc").map((c) =>
        h("button", { type: "button", dataset: { seatFor: c.id }, onclick: (e) => addSeat("player", [c.id], c.name, e.currentTarget) }, `Player link: ${c.name}`)),
      h("button", { type: "button", dataset: { seatFor: "" }, onclick: (e) => addSeat("spectator", [], "spectators", e.currentTarget) }, "Spectator link"));
  }
  if (adjustInputs($("#adjust-fields"), "adj-")) fillAdjust($("#adjust-fields"), S.state.combatants[$("#adjust-c").value]);
  fillSelect($("#adjust-form select[name=combatant]"), inRosterOrder(st).map((c) => [c.id, c.name]));
  renderDisputes(st);
}

function fillSelect(select, options) {
  const key = JSON.stringify(options);
  if (select.dataset.key === key) return;
  const keep = select.value;
  select.dataset.key = key;
  select.replaceChildren(...options.map(([v, t]) => h("option", { value: v }, t)));
  if (options.some(([v]) => v === keep)) select.value = keep;
  select.dispatchEvent(new Event("change"));
}

function renderDisputes(st) {
  const box = $("#gm-disputes");
  const disputes = S.viewSeq !== null ? [] : (st.prompts || []).filter((p) => p.kind === "dispute");
  const key = disputes.map((p) => p.id).join("|");
  if (key === S.disputeKey) return;
  S.disputeKey = key;
  // What the GM typed into a ruling survives a second dispute arriving or a look at the past.
  // Only what the GM typed or chose: the condition values it pre-fills must follow the live state, not a draft.
  for (const f of $$("form.dispute-rule", box)) S.rulingDrafts[f.dataset.dispute] = { values: formValues(f, true), open: !!$("details[open]", f) };
  const open = (S.state.prompts || []).filter((p) => p.kind === "dispute").map((p) => p.id);  // live, even while in the past
  for (const id of Object.keys(S.rulingDrafts)) if (!open.includes(id)) delete S.rulingDrafts[id];
  box.replaceChildren(...disputes.map((p) => {
    const seq = (p.options || {}).seq;
    const form = h("form", { class: "dispute-rule", dataset: { dispute: p.id }, autocomplete: "off" },
      h("p", { class: "prompt-text" }, "⚑ ", p.text),
      h("label", {}, "Your ruling (shown in the log)", h("input", { name: "comment", maxlength: 300, placeholder: "the shield was not at hand" })),
      h("details", { class: "override" }, h("summary", {}, `Override: set ${adjustLabels()}`),
        h("div", { class: "grid2" },
          h("div", {}, h("label", { for: `rule-c-${p.id}` }, "Combatant"),
            h("select", { name: "combatant", id: `rule-c-${p.id}` }, inRosterOrder(st).map((c) => h("option", { value: c.id }, c.name))))),
        h("div", { class: "row wrap adjust-fields" })),
      h("div", { class: "row wrap" },
        h("button", { type: "button", class: "primary", dataset: { verdict: "uphold" } }, "Uphold (no change)"),
        h("button", { type: "button", dataset: { verdict: "override" } }, "Override"),
        seq ? h("button", { type: "button", class: "link", onclick: () => scrubTo(seq) }, `View event #${seq}`) : null));
    const sel = $("select[name=combatant]", form);
    const fieldsBox = $(".adjust-fields", form);
    adjustInputs(fieldsBox, `rule-${p.id}-`);
    const fill = () => fillAdjust(fieldsBox, S.state.combatants[sel.value]);
    const ev = seq && S.entries.get(seq);
    const p0 = ev && ev.data.event.payload;
    // Who the disputed event hurt or concerned: a damage or injury target first, then a defender, then the actor.
    // Whom the event is about: its target, a nested record's target, or whoever it names.
    const nested = p0 && Object.values(p0).find((v) => v && typeof v === "object" && typeof v.target === "string");
    const guess = p0 && (p0.target || (nested && nested.target) || p0.defender || p0.combatant || p0.attacker);
    if (guess && st.combatants[guess]) sel.value = guess;
    fill();
    sel.addEventListener("change", fill);
    form.addEventListener("input", (e) => { if (e.target.name) e.target.dataset.touched = "1"; });
    form.addEventListener("change", (e) => { if (e.isTrusted && e.target.name) e.target.dataset.touched = "1"; });
    const draft = S.rulingDrafts[p.id];
    if (draft) {
      restoreForm(form, draft.values.filter(([n]) => n !== "combatant"));
      const chosen = draft.values.find(([n]) => n === "combatant");
      const adjustable = new Set(adjustFields().map((f) => f.name));
      if (chosen && st.combatants[chosen[1]]) { sel.value = chosen[1]; sel.dataset.touched = "1"; fill(); restoreForm(form, draft.values.filter(([n]) => adjustable.has(n))); }
      if (draft.open) $("details.override", form).open = true;
    }
    $$("button[data-verdict]", form).forEach((b) => b.addEventListener("click", async () => {
      const verdict = b.dataset.verdict;
      const args = { dispute: p.id, verdict, comment: form.elements.comment.value.trim() };
      if (verdict === "override") {
        const changes = adjustChanges(fieldsBox, S.state.combatants[sel.value]);
        if (!Object.keys(changes).length) { toast(`An override changes something: set ${adjustLabels()}.`, "error"); return; }
        args.adjustments = [{ combatant: sel.value, changes, reason: `ruling on the dispute: ${args.comment || "GM override"}` }];
      }
      await act("rule", args, undefined, b);
    }));
    return form;
  }));
}

async function addSeat(role, combatants, label, button) {
  button.disabled = true;
  try {
    const m = await request({ type: "add_seat", role, combatants, label });
    keepLink(m, role === "spectator" ? "Spectators" : label);
    refreshSeats();
  } catch (err) {
    toast(describe(err), "error");
  } finally {
    button.disabled = false;
  }
}

function savedLinks() {
  try { return JSON.parse(localStorage.getItem("links:" + S.fightId) || "[]"); } catch (e) { return []; }
}

// ---- seats and their links (#13): every seat of the fight (list_seats), with its link where this
// browser kept it, else a button for a new one (new_link: the old link stops working, the log says so).

/** Keep a seat's link in this browser (a `seat_added` reply: a new seat, or a new link for one). */
function keepLink(reply, label) {
  const links = savedLinks().filter((l) => l.seat_id !== reply.seat.seat_id);
  links.push({ seat_id: reply.seat.seat_id, label: label || reply.seat.label || reply.seat.seat_id, role: reply.seat.role, link: reply.link });
  localStorage.setItem("links:" + S.fightId, JSON.stringify(links));
}

/** The GM's list of seats, asked again (a seat added, a link replaced). */
function refreshSeats() {
  if (!isGM()) { renderLinks(); return; }
  request({ type: "list_seats" }).then((m) => { S.seats = m.seats; renderLinks(); })
    .catch((err) => { if (err.code !== "client/disconnected") toast(describe(err), "error"); });
}

/** Links replaced elsewhere (`combat-server links`, another GM page): the kept ones no longer work. */
function forgetLinks(seatIds) {
  const links = savedLinks().filter((l) => !seatIds.includes(l.seat_id));
  localStorage.setItem("links:" + S.fightId, JSON.stringify(links));
}

async function newLink(seat, label, button) {
  if (!confirm(`Make a new link for ${label}? The old link stops working.`)) return;
  button.disabled = true;
  try {
    keepLink(await request({ type: "new_link", seat: seat.seat_id }), label);
    refreshSeats();
  } catch (err) {
    toast(describe(err), "error");
    button.disabled = false;
  }
}

function renderLinks() {
  const ul = $("#links");
  const saved = savedLinks();
  const rows = !S.seats ? saved.map((l) => ({ seat: null, label: l.label, link: l.link }))
    : S.seats.filter((x) => x.role !== "gm").map((x) => {
      const l = saved.find((y) => y.seat_id === x.seat_id);
      return { seat: x, label: l ? l.label : (x.role === "spectator" ? "Spectators" : x.label || x.seat_id), link: l ? l.link : null };
    });
  ul.replaceChildren(...rows.map((row) => row.link ? linkRow(row.label, row.link, row.seat)
    : h("li", { class: "link-row lost", dataset: { label: row.label, seat: row.seat.seat_id } },
      h("span", { class: "link-label" }, row.label),
      h("span", { class: "hint grow" }, "link not kept in this browser"),
      h("button", { type: "button", onclick: (e) => newLink(row.seat, row.label, e.currentTarget) }, "New link"))));
  const mine = $("#gm-link");
  if (mine) mine.value = isGM() ? location.href : "";
}

function linkRow(label, link, seat) {
  const input = h("input", { class: "link-text", readonly: true, value: link, "aria-label": `link for ${label}` });
  return h("li", { class: "link-row", dataset: { label, seat: seat ? seat.seat_id : null } },
    h("span", { class: "link-label" }, label),
    input,
    h("button", { type: "button", onclick: async (e) => {
      input.select();
      try { await navigator.clipboard.writeText(link); } catch (err) { document.execCommand && document.execCommand("copy"); }
      e.currentTarget.textContent = "Copied";
    } }, "Copy"),
    h("a", { href: link, target: "_blank", rel: "noopener", class: "button" }, "Open"),
    seat ? h("button", { type: "button", class: "link", title: "replace this link: the old one stops working",
      onclick: (e) => newLink(seat, label, e.currentTarget) }, "New link") : null);
}

// ---- the log

function dieBoxes(faces) {
  return h("span", { class: "dice", "aria-label": `dice ${faces.join(", ")}` }, faces.map((f) => h("span", { class: "die-face" }, String(f))));
}

/** The line the fight's ruleset reads roll record ``rec`` (of an event with payload ``p``) with, or null
 * for the usual "total vs target": each {field} a number of the record, else of the payload; ? when the
 * seat may not see it (a hidden sheet's number). */
function rollReading(rec, p) {
  const rs = fightRuleset();
  const line = rs && rs.roll_readings && hasOwn(rs.roll_readings, rec.rule) ? rs.roll_readings[rec.rule] : null;
  if (typeof line !== "string") return null;
  return line.replace(/\{(\w+)\}/g, (_, name) => {
    const v = hasOwn(rec, name) ? rec[name] : p[name];
    return typeof v === "number" ? String(v) : "?";
  });
}

/** The roll under the explanation: the faces, the modifiers and the outcome (the explanation has the rest). */
function payloadDice(p) {
  const parts = [];
  const rec = p.record;
  if (rec && rec.dice) {
    // A hidden roller's target is withheld by the server: show the total alone. A roll that is not a
    // roll under its target reads as its ruleset says (welcome.rulesets[].roll_readings).
    const reading = rollReading(rec, p);
    parts.push(dieBoxes(rec.dice), h("span", { class: reading ? "reading" : null }, reading ? ` ${reading}`
      : typeof rec.target === "number" ? ` = ${rec.total} vs ${rec.target}` : ` = ${rec.total}`));
    for (const m of rec.modifiers || []) parts.push(h("span", { class: "mod" }, `${signed(m.value)} ${m.reason}`, m.rule ? [" ", ...ruleText(m.rule)] : null));
    if (rec.outcome) parts.push(h("span", { class: "outcome " + rec.outcome.replace(/ /g, "-") }, rec.outcome));
  } else if (Array.isArray(p.dice) && p.dice.length) {
    parts.push(dieBoxes(p.dice));
    if (typeof p.adds === "number" && p.adds) parts.push(h("span", {}, ` ${signed(p.adds)}`));
    for (const m of p.modifiers || []) parts.push(h("span", { class: "mod" }, `${signed(m.value)} ${m.reason}`, m.rule ? [" ", ...ruleText(m.rule)] : null));
    if (typeof p.injury === "number") parts.push(h("span", { class: "outcome injury" }, `${p.injury} injury`));
  }
  return parts.length ? h("div", { class: "roll-detail" }, ...parts) : null;
}

function appendLogEntry(data) {
  const e = data.event;
  const p = e.payload || {};
  const canDispute = () => S.seat && !isSpectator();
  const li = h("li", { class: `entry type-${e.type}`, dataset: { seq: data.seq, type: e.type }, id: `ev-${data.seq}` },
    h("div", { class: "entry-head" },
      h("button", { type: "button", class: "seq link", title: "view the fight at this point", onclick: () => scrubTo(data.seq) }, `#${data.seq}`),
      h("span", { class: "etype" }, human(e.type)),
      h("span", { class: "spacer" }),
      h("span", { class: "entry-actions" },
        e.type !== "fight_created" ? h("button", { type: "button", class: "small dispute-btn", onclick: () => openDispute(data) }, "Dispute") : null,
        h("button", { type: "button", class: "small undo-to gm-only", title: "undo everything after this event", onclick: (ev) => {
          if (confirm(`Undo everything after event #${data.seq}?`)) act("undo", { to: "seq", seq: data.seq }, undefined, ev.currentTarget);
        } }, "Undo after"))),
    h("p", { class: "expl" }, ruleText(data.explanation || human(e.type))),
    payloadDice(p));
  const ol = $("#log");
  const nearBottom = logAtBottom(ol);
  if (quietTypes().has(e.type)) {
    // A run of bookkeeping folds into its last event (a turn's start): one divider per turn.
    const prev = ol.lastElementChild;
    if (prev && prev.classList.contains("quiet")) prev.classList.remove("run-last");
    li.classList.add("quiet", "run-last");
  }
  ol.append(li);
  S.entries.set(data.seq, { data, li });
  if (nearBottom) ol.scrollTop = ol.scrollHeight;
  else if (S.viewSeq === null && li.offsetParent !== null) countUnseen(1);
  void canDispute;
}

function markUndone() {
  const undone = new Set((S.state && S.state.undone) || []);
  for (const [seq, { li }] of S.entries) {
    const u = undone.has(seq);
    li.classList.toggle("undone", u);
    li.classList.toggle("viewing", S.viewSeq === seq);
    li.classList.toggle("future", S.viewSeq !== null && seq > S.viewSeq);
    if (u) li.setAttribute("aria-label", `event ${seq}, undone`); else li.removeAttribute("aria-label");
  }
  document.body.classList.toggle("is-gm", !!isGM());
  document.body.classList.toggle("is-spectator", !!isSpectator());
}

function openDispute(data) {
  const dlg = $("#dispute-dialog");
  $("#dispute-seq").textContent = "#" + data.seq;
  $("#dispute-expl").textContent = data.explanation;
  const form = $("#dispute-form");
  form.elements.comment.value = "";
  form.onsubmit = async (e) => {
    e.preventDefault();
    const box = form.elements.comment;
    const comment = box.value.trim();
    if (!comment) {  // only spaces: say so, keep the dialog open
      box.setCustomValidity("Say what is wrong, so the GM can rule on it.");
      box.reportValidity();
      box.addEventListener("input", () => box.setCustomValidity(""), { once: true });
      return;
    }
    dlg.close();
    const r = await act("dispute", { seq: data.seq, comment });
    if (r) toast(`Dispute sent: the GM will rule on event #${data.seq}.`, "ok");
  };
  dlg.showModal();
  form.elements.comment.focus();
}

/** Manual dice that the server asked for (count d sides); resolves with the faces or null. */
function askDice(count, sides, text) {
  const dlg = $("#dice-dialog");
  const box = $("#dice-inputs");
  $("#dice-text").textContent = text;
  box.replaceChildren(diceInputs(count, sides, `${count}d${sides}`));
  return new Promise((resolve) => {
    const form = $("#dice-form");
    form.onsubmit = (e) => {
      e.preventDefault();
      const f = readDice(box);
      if (!f) return;
      dlg.close();
      resolve(f[0]);
    };
    dlg.onclose = () => resolve(null);
    dlg.showModal();
    const first = $("input", box);
    if (first) first.focus();
  });
}

// ---- the timeline

function renderScrubber() {
  const r = $("#scrubber");
  r.max = String(Math.max(1, S.lastSeq));
  r.value = S.viewSeq === null ? r.max : String(S.viewSeq);  // follows jumps from the log, not only drags
  $("#scrub-label").textContent = S.viewSeq === null ? `live · event ${S.lastSeq}` : `event ${S.viewSeq} of ${S.lastSeq}`;
  r.setAttribute("aria-valuetext", $("#scrub-label").textContent);
}

let scrubToken = 0;
async function scrubTo(seq) {
  seq = Math.max(1, Math.min(S.lastSeq, Number(seq)));
  if (seq >= S.lastSeq) { backToLive(); return; }
  const mine = ++scrubToken;
  try {
    const m = await request({ type: "state_at", seq });
    if (mine !== scrubToken) return;
    S.viewSeq = seq;
    S.viewState = m.state;
    render();
    const e = S.entries.get(seq);
    if (e) e.li.scrollIntoView({ block: "nearest" });
  } catch (err) {
    toast(describe(err), "error");
  }
}

function backToLive() {
  scrubToken++;
  S.viewSeq = null;
  S.viewState = null;
  render();
  const ol = $("#log");
  ol.scrollTop = ol.scrollHeight;
}

// ------------------------------------------------------------------ banners and toasts

function setConn(what) {
  const el = $("#conn");
  el.textContent = { live: "live", online: "online", joining: "joining…", connecting: "connecting…", offline: "offline" }[what] || what;
  el.className = "conn conn-" + what;
}

function showBanner(text, kind) {
  const b = $("#banner");
  b.textContent = text;
  b.className = "banner " + (kind || "");
  b.hidden = false;
}

function hideBanner() { $("#banner").hidden = true; }

function toast(text, kind) {
  const t = h("div", { class: "toast " + (kind || ""), role: kind === "error" ? "alert" : "status" }, text,
    h("button", { type: "button", class: "toast-x", "aria-label": "dismiss", onclick: () => t.remove() }, "×"));
  $("#toasts").append(t);
  setTimeout(() => t.remove(), kind === "error" ? 8000 : 4000);
}

// ------------------------------------------------------------------ pages

function showLanding() {
  $("#landing").hidden = false;
  $("#fight").hidden = true;
  $("#seat-badge").hidden = true;
  $("#fight-title").textContent = "combat-server";
}

function showFight() {
  $("#landing").hidden = true;
  $("#fight").hidden = false;
  refreshSeats();
  render();
}

function tokenFromText(text) {
  text = (text || "").trim();
  const m = text.match(/[#?&]token=([^&#\s]+)/);
  if (m) return decodeURIComponent(m[1]);
  return /^[A-Za-z0-9_-]{8,200}$/.test(text) ? text : null;
}

function join(token) {
  resetFight();
  S.token = token;
  S.everSubscribed = false;
  history.replaceState(null, "", location.pathname + "#token=" + encodeURIComponent(token));
  if (S.ws && S.ws.readyState === WebSocket.OPEN) resubscribe();
}

// ------------------------------------------------------------------ create-fight form: rulesets and their options
// Built from welcome.rulesets (docs/protocol.md): the server says which rulesets it has and
// each one's options (type, default, allowed values, group, help, rule ids); nothing here knows them.

let shownRulesets = "";

function renderRulesets(rulesets) {
  const key = JSON.stringify(rulesets);
  if (key === shownRulesets) return;  // a reconnect: keep what the GM chose
  shownRulesets = key;
  const select = $("#create-ruleset");
  const keep = select.value;
  select.replaceChildren(...rulesets.map((r) => h("option", { value: r.name }, `${r.name} ${r.version}`)));
  if (rulesets.some((r) => r.name === keep)) select.value = keep;
  // Enabled once the server has said which rules it has: a fight created before would get the server's
  // default ruleset, not one the GM could see and choose.
  const create = $("#create-btn");
  create.disabled = !rulesets.length;
  create.title = rulesets.length ? "" : "This server offers no rules to create a fight with";
  renderOptions();
  const demo = demoRuleset();
  $("#demo-card").hidden = !demo;
  if (demo) {
    const names = (side) => demo.demo.combatants.filter((c) => (c.side === "pc") === side).map((c) => c.name).join(", ");
    $("#demo-text").textContent = `${demo.demo.title} (${demo.name}): ${names(true)} against ${names(false)}.`;
  }
}

/** The first ruleset that offers a demo fight (welcome.rulesets[].demo), if any. */
function demoRuleset() {
  return ((S.welcome && S.welcome.rulesets) || []).find((r) => r.demo) || null;
}

function chosenRuleset() {
  const name = $("#create-ruleset").value;
  return ((S.welcome && S.welcome.rulesets) || []).find((r) => r.name === name) || null;
}

function optionInput(spec) {
  const id = "opt-" + spec.name;
  const common = { id, dataset: { option: spec.name, type: spec.type } };  // no name: an option may share one with a form field
  if (spec.choices) {
    const sel = h("select", common, ...spec.choices.map((c) => h("option", { value: JSON.stringify(c) }, String(c))));
    sel.value = JSON.stringify(spec.default);
    return sel;
  }
  if (spec.type === "boolean") return h("input", { ...common, type: "checkbox", checked: spec.default === true });
  if (spec.type === "integer" || spec.type === "number") {
    return h("input", { ...common, type: "number", value: spec.default, min: spec.minimum, max: spec.maximum,
                        step: spec.type === "integer" ? 1 : "any", class: "narrow" });
  }
  return h("input", { ...common, type: "text", value: spec.default });
}

function renderOptions() {
  const rs = chosenRuleset();
  const specs = rs ? rs.options : [];
  const groups = new Map();
  for (const spec of specs) {
    if (!groups.has(spec.group)) groups.set(spec.group, []);
    groups.get(spec.group).push(spec);
  }
  $("#create-option-groups").replaceChildren(...[...groups].map(([group, members]) => h("fieldset", { class: "option-group" },
    h("legend", null, group),
    ...members.map((spec) => {
      const input = optionInput(spec);
      const help = h("span", { class: "hint" }, spec.help, spec.rules.length ? ruleText(` (${spec.rules.join(", ")})`) : "");
      const box = spec.type === "boolean" && !spec.choices;
      return h("div", { class: "option", dataset: { option: spec.name } },
        box ? h("label", { class: "inline", for: input.id }, input, spec.label)
            : h("label", { for: input.id }, spec.label, " ", input),
        help);
    }))));
  $("#create-options").hidden = specs.length === 0;
}

function chosenOptions() {
  const rs = chosenRuleset();
  const out = {};
  for (const spec of rs ? rs.options : []) {
    const input = document.getElementById("opt-" + spec.name);
    if (!input) continue;
    let value;
    if (spec.choices) value = JSON.parse(input.value);
    else if (spec.type === "boolean") value = input.checked;
    else if (spec.type === "integer" || spec.type === "number") value = input.value === "" ? spec.default : Number(input.value);
    else value = input.value;
    if (value !== spec.default) out[spec.name] = value;  // the server fills in the defaults
  }
  return out;
}

// ------------------------------------------------------------------ sheet editor, built from the ruleset's sheet schema
// welcome.rulesets[].sheet is a JSON Schema with a title and help per field (docs/protocol.md);
// the Add-a-combatant form is generated from it. A field left empty is left out: the server's default.

let shownSheet = "";

function fightSheetSchema() {
  const rs = fightRuleset();
  return rs ? rs.sheet : null;
}

function renderSheetEditor() {
  const schema = fightSheetSchema();
  const key = JSON.stringify(schema);
  if (key === shownSheet) return;  // keep what the GM is typing
  shownSheet = key;
  const box = $("#sheet-editor");
  box.replaceChildren(...(schema && schema.properties ? objectFields(schema, "") : []));
}

function schemaTypes(s) { return Array.isArray(s.type) ? s.type : [s.type]; }

function objectFields(schema, prefix) {
  const primary = new Set(schema["x-primary"] || Object.keys(schema.properties));
  const first = [], more = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const path = prefix ? `${prefix}.${key}` : key;
    (primary.has(key) ? first : more).push(fieldFor(prop, path, (schema.required || []).includes(key)));
  }
  const grid = (items) => h("div", { class: "grid2 sheet-fields" }, items.filter((f) => !f.classList.contains("sheet-list")));
  const lists = (items) => items.filter((f) => f.classList.contains("sheet-list"));
  return [grid(first), ...lists(first),
          more.length ? h("details", { class: "sheet-more" }, h("summary", null, "More"), grid(more), ...lists(more)) : null];
}

function fieldFor(prop, path, required) {
  const title = prop.title || path.split(".").pop();
  const types = schemaTypes(prop);
  const common = { dataset: { path }, title: prop.description || null };
  if (types.includes("array") && prop.items && prop.items.properties) return listField(prop, path);
  if (types.includes("object") && prop.properties) return groupField(prop, path);
  if (types.includes("array") && prop.items && prop.items.enum) return setField(prop, path, title);
  let input;
  if (prop.enum) {
    input = h("select", common, ...(required ? [] : [h("option", { value: "" }, "")]),
              ...prop.enum.map((v) => h("option", { value: JSON.stringify(v) }, String(v))));
    input.value = prop.default !== undefined ? JSON.stringify(prop.default) : "";
    input.dataset.kind = "enum";
    input.dataset.default = input.value;
  } else if (types.includes("boolean")) {
    input = h("input", { ...common, type: "checkbox", checked: prop.default === true });
    input.dataset.kind = "boolean";
    return h("label", { class: "inline" }, input, " ", title);
  } else if (prop["x-rational"]) {  // a number or an exact fraction such as "1/36"
    input = h("input", { ...common, type: "text", pattern: prop.pattern ? prop.pattern.replace(/^\^|\$$/g, "") : null,
                         placeholder: prop.default !== undefined ? String(prop.default) : "none" });
    input.dataset.kind = "rational";
  } else if (types.includes("integer") || types.includes("number")) {
    input = h("input", { ...common, type: "number", min: prop.minimum, max: prop.maximum,
                         step: types.includes("integer") ? 1 : "any",
                         placeholder: prop.default !== undefined ? String(prop.default) : "none" });
    input.dataset.kind = types.includes("integer") ? "integer" : "number";
    if (types.includes("null")) input.dataset.nullable = "1";
  } else if (types.includes("object")) {  // a map of names to values: one "name: value" per line
    input = h("textarea", { ...common, rows: 2, placeholder: "name: value, one per line" });
    input.dataset.kind = "map";
  } else {
    input = h("input", { ...common, type: "text",
                         placeholder: prop.default !== undefined ? String(prop.default) : "" });
    input.dataset.kind = "string";
  }
  return h("label", null, title, " ", input);
}

function listField(prop, path) {
  const items = h("div", { class: "sheet-items" });
  const itemTitle = prop.items.title || "item";
  const add = () => {
    const fs = h("fieldset", { class: "sheet-item" }, h("legend", null, itemTitle),
      ...objectFields(prop.items, path + ".#"),
      h("button", { type: "button", class: "small", onclick: () => fs.remove() }, `Remove ${itemTitle.toLowerCase()}`));
    items.append(fs);
    return fs;
  };
  add();
  const list = h("fieldset", { class: "sheet-list", dataset: { path } }, h("legend", null, prop.title || path),
    prop.description ? h("p", { class: "hint" }, prop.description) : null, items,
    h("button", { type: "button", class: "small", onclick: add }, `Add ${itemTitle.toLowerCase()}`));
  list.addItem = add;  // the editor fills a list item by item (editing a combatant)
  return list;
}

/** A nested object of named fields (a group of a sheet): its own fieldset,
 *  sent as an object holding only the fields typed or changed. */
function groupField(prop, path) {
  return h("fieldset", { class: "sheet-list sheet-group", dataset: { path, kind: "group" } },
    h("legend", null, prop.title || path), prop.description ? h("p", { class: "hint" }, prop.description) : null,
    ...objectFields(prop, path));
}

/** A list of allowed values, any of them at most once (a sheet's traits): a box each. */
function setField(prop, path, title) {
  return h("fieldset", { class: "sheet-set", dataset: { path, kind: "set" }, title: prop.description || null },
    h("legend", null, title),
    prop.items.enum.map((v) => h("label", { class: "inline" },
      h("input", { type: "checkbox", value: JSON.stringify(v), checked: (prop.default || []).includes(v) || null }), " ", String(v))));
}

/** The sheet JSON of the editor: only the fields typed or changed from their default. */
function sheetFromEditor(root, prefix = "") {
  const out = {};
  const own = (el) => el.dataset.path.startsWith(prefix) && !el.dataset.path.slice(prefix.length).includes(".");
  for (const el of $$("[data-path]", root).filter(own)) {
    const key = el.dataset.path.slice(prefix.length);
    if (el.dataset.kind === "group") {
      const group = sheetFromEditor(el, el.dataset.path + ".");
      if (Object.keys(group).length) out[key] = group;
      continue;
    }
    if (el.classList.contains("sheet-list")) {
      const list = $$(":scope > .sheet-items > .sheet-item", el).map((fs) => sheetFromEditor(fs, el.dataset.path + ".#."))
        .filter((item) => Object.keys(item).length);
      if (list.length) out[key] = list;
      continue;
    }
    const kind = el.dataset.kind;
    if (kind === "boolean") { if (el.checked !== el.defaultChecked) out[key] = el.checked; continue; }
    if (kind === "set") {
      const boxes = $$("input[type=checkbox]", el);
      if (boxes.some((b) => b.checked !== b.defaultChecked)) out[key] = boxes.filter((b) => b.checked).map((b) => JSON.parse(b.value));
      continue;
    }
    const text = el.value.trim();
    if (text === "" && el.dataset.null === "1") { out[key] = null; continue; }  // an edited sheet's "none" stays none
    if (text === "") continue;
    if (kind === "enum") { if (text !== el.dataset.default) out[key] = JSON.parse(text); }
    else if (kind === "rational") out[key] = /^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : text;
    else if (kind === "integer" || kind === "number") out[key] = Number(text);
    else if (kind === "map") {
      out[key] = Object.fromEntries(text.split("\n").filter((l) => l.trim()).map((l) => {
        const i = l.lastIndexOf(":");
        const v = l.slice(i + 1).trim();
        // a number, true or false as such (a map of yes/no entries); any other text as text
        return [l.slice(0, i).trim(), v === "true" ? true : v === "false" ? false : v !== "" && !isNaN(+v) ? +v : v];
      }));
    } else out[key] = text;
  }
  return out;
}

function resetSheetEditor() {
  shownSheet = "";
  renderSheetEditor();
}

/** Put a sheet's values (the state's, of a combatant being edited) into the editor. */
function fillSheetEditor(root, sheet, prefix = "") {
  const own = (el) => el.dataset.path.startsWith(prefix) && !el.dataset.path.slice(prefix.length).includes(".");
  for (const el of $$("[data-path]", root).filter(own)) {
    const key = el.dataset.path.slice(prefix.length);
    const v = sheet[key];
    if (el.dataset.kind === "group") { fillSheetEditor(el, v || {}, el.dataset.path + "."); continue; }
    if (el.classList.contains("sheet-list")) {
      $(":scope > .sheet-items", el).replaceChildren();
      for (const item of Array.isArray(v) ? v : []) fillSheetEditor(el.addItem(), item, el.dataset.path + ".#.");
      continue;
    }
    const kind = el.dataset.kind;
    if (kind === "set") { for (const b of $$("input[type=checkbox]", el)) b.checked = (v || []).includes(JSON.parse(b.value)); continue; }
    if (kind === "boolean") { if (v !== undefined) el.checked = v === true; continue; }
    if (v === undefined) continue;
    el.dataset.null = v === null && el.dataset.nullable ? "1" : "";
    if (v === null) el.value = "";
    else if (kind === "enum") el.value = JSON.stringify(v);
    else if (kind === "map") el.value = Object.entries(v || {}).map(([k, x]) => `${k}: ${x}`).join("\n");
    else el.value = String(v);
    if (el.dataset.null === "1") el.addEventListener("input", () => { el.dataset.null = ""; }, { once: true });
  }
}

async function createFight(opts) {
  const m = await request({ type: "create_fight", ...opts });
  join(m.token);
  toast("Keep this page's link (bookmark it): it is your GM link, the only way back to this fight as its GM.", "ok");
  return m;
}

async function openDemo(button) {
  button.disabled = true;
  try {
    const ruleset = demoRuleset();
    const demo = ruleset.demo;
    await createFight({ ruleset: ruleset.name, title: demo.title, dice_mode: "seeded", seed: "web-demo-" + Date.now() });
    await waitFor(() => S.subscribed);
    for (const { id, name, side, sheet } of demo.combatants) await command("add_combatant", { id, name, side, sheet });
    if (demo.note) await command("note", { text: demo.note });
    for (const { id, name, side } of demo.combatants) {
      if (side !== "pc") continue;
      keepLink(await request({ type: "add_seat", role: "player", combatants: [id], label: name }), name);
    }
    refreshSeats();
    toast("Demo fight created: hand out the player links, then start combat.", "ok");
  } catch (err) {
    toast(describe(err), "error");
  } finally {
    button.disabled = false;
  }
}

function waitFor(pred, ms = 10000) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => { if (pred()) resolve(); else if (Date.now() - t0 > ms) reject({ code: "client/timeout", message: "timed out" }); else setTimeout(tick, 30); };
    tick();
  });
}

// ------------------------------------------------------------------ a log that follows the table (#13)
// The log follows new events while the reader is at its end; scrolled up, it keeps still and a
// button counts what came ("N new events ↓"). Events the ruleset calls turn bookkeeping
// (welcome.rulesets[].quiet_events) fold away unless asked for: each run of them shows as one
// divider, the run's last event (a new turn), so the log reads turn by turn. The tab title, and a sound when
// asked for, say that it is this seat's turn or that a prompt waits for it.

const logAtBottom = (ol) => ol.scrollHeight - ol.scrollTop - ol.clientHeight < 80;

/** Turn bookkeeping event types: the fight's ruleset's (any ruleset's while the fight is not known yet). */
function quietTypes() {
  const rs = fightRuleset();
  const all = rs ? [rs] : ((S.welcome && S.welcome.rulesets) || []);
  return new Set(all.flatMap((r) => r.quiet_events || []));
}

function countUnseen(n) {
  S.unseen = n ? (S.unseen || 0) + n : 0;
  const btn = $("#log-new");
  btn.hidden = !S.unseen;
  btn.textContent = `${S.unseen} new event${S.unseen === 1 ? "" : "s"} ↓`;
}

function renderQuietToggle() {
  const quiet = $$("#log > li.quiet").length;
  $("#quiet-toggle").hidden = !quiet;
  $("#quiet-count").textContent = quiet ? `(${quiet})` : "";
}

/** What waits for this seat now, or "" (the tab title's prefix). */
function attentionTitle() {
  const st = S.state;
  if (!st || !S.seat || isSpectator() || st.status !== "active") return "";
  const prompts = (st.prompts || []).filter((p) => p.kind !== "dispute" ? ownsTurn(p.combatant) : isGM());
  if (prompts.length) return "● Waiting for you · ";
  const blocking = (st.prompts || []).some((p) => p.kind !== "dispute");
  const cur = st.combat && st.combat.current;
  if (!blocking && cur && ownsTurn(cur)) return "● Your turn · ";  // the GM's: an NPC's turn
  return "";
}

/** A short tone (Web Audio: nothing to download), when the seat asked for sound and something new waits for it. */
function chime(now) {
  const was = S.attention || "";
  S.attention = now;
  if (!now || now === was || !$("#sound-on").checked) return;
  S.chimes = (S.chimes || 0) + 1;
  try {
    const ctx = S.audio || (S.audio = new AudioContext());
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
  } catch (err) { /* no audio device: the title still says it */ }
}

function wireLog() {
  const ol = $("#log");
  ol.addEventListener("scroll", () => { if (logAtBottom(ol)) countUnseen(0); });
  $("#log-new").addEventListener("click", () => { ol.scrollTop = ol.scrollHeight; countUnseen(0); });
  $("#show-quiet").addEventListener("change", (e) => ol.classList.toggle("fold-quiet", !e.currentTarget.checked));
  const sound = $("#sound-on");
  sound.checked = localStorage.getItem("sound") === "on";
  sound.addEventListener("change", () => localStorage.setItem("sound", sound.checked ? "on" : "off"));
}

// ------------------------------------------------------------------ editing and removing combatants (#13)
// The GM edits a combatant in the Add-a-combatant form, filled with its sheet (update_combatant),
// or removes it (remove_combatant); both are events in the log like any command.

function rosterTools(c) {
  if (!isGM() || S.viewSeq !== null || S.state.status === "ended") return null;
  return h("span", { class: "c-tools" },
    h("button", { type: "button", class: "link edit-c", onclick: () => startEditing(c.id) }, "Edit"),
    h("button", { type: "button", class: "link remove-c", onclick: (ev) => {
      if (confirm(`Remove ${c.name} from the fight?`)) act("remove_combatant", { id: c.id, reason: "removed by the GM" }, undefined, ev.currentTarget);
    } }, "Remove"));
}

function startEditing(cid) {
  const c = S.state.combatants[cid];
  if (!c) return;
  const f = $("#add-form");
  resetSheetEditor();
  f.dataset.editing = cid;
  f.elements.name.value = c.name;
  f.elements.side.value = c.side;
  f.elements.hidden.checked = !!c.hidden;
  f.elements.sheet_json.value = "";
  fillSheetEditor($("#sheet-editor"), c.sheet || {});
  $$("#sheet-editor > details.sheet-more").forEach((d) => { d.open = true; });  // an edit shows every field it fills
  $("#gm-setup").open = true;
  $("#gm-setup > summary").textContent = `Edit ${c.name}`;
  $("button[type=submit]", f).textContent = "Save changes";
  $("#edit-cancel").hidden = false;
  f.elements.name.focus();
}

/** Back to adding: the form empties (after an edit, side and hidden too; after an add they stay for the next). */
function stopEditing() {
  const f = $("#add-form");
  if (f.dataset.editing) { f.elements.side.value = "npc"; f.elements.hidden.checked = false; }
  delete f.dataset.editing;
  f.elements.name.value = "";
  f.elements.sheet_json.value = "";
  resetSheetEditor();
  $("#gm-setup > summary").textContent = "Add a combatant";
  $("button[type=submit]", f).textContent = "Add combatant";
  $("#edit-cancel").hidden = true;
}

// ------------------------------------------------------------------ the combatant card (#13)
// The description's `stats` (docs/protocol.md, Descriptions): labelled numbers per combatant, in the
// groups the ruleset names. Folded by default but for the seat's own combatants; kept as the reader left it.

const cardOpen = new Map();

function statCard(cid) {
  const stats = ((S.description && S.description.stats) || []).filter((x) => x.combatant === cid);
  if (!stats.length) return null;
  const groups = new Map();
  for (const x of stats) {
    if (!groups.has(x.group)) groups.set(x.group, []);
    groups.get(x.group).push(x);
  }
  const own = !!(S.seat && S.seat.combatants.includes(cid));
  const open = cardOpen.has(cid) ? cardOpen.get(cid) : own;
  const box = h("details", { class: "c-card", open: open || null },
    h("summary", {}, "Card"),
    h("dl", { class: "card-groups" }, [...groups].map(([group, items]) => h("div", { class: "card-group", dataset: { group } },
      h("dt", {}, group),
      h("dd", {}, items.map((x) => h("span", { class: "stat", dataset: { label: x.label },
        title: [x.help, x.rule].filter(Boolean).join(" · ") || null },
        h("span", { class: "stat-label" }, x.label), " ", h("b", { class: "stat-value" }, x.value),
        x.rule ? [" ", ruleRef(x.rule)] : null)))))));
  box.addEventListener("toggle", () => cardOpen.set(cid, box.open));
  return box;
}

// ------------------------------------------------------------------ GM adjustments, from the fields the ruleset declares
// welcome.rulesets[].adjust (docs/protocol.md): what the GM may set on a combatant's condition, each
// field shaped like an action's (label, help, rule id, bounds). The Adjust form and a ruling's
// override are built from it; the page knows no condition field by name.

/** The entry of welcome.rulesets for this fight's ruleset (its sheet schema, adjustable fields, rule texts ...). */
function fightRuleset() {
  const name = (S.state && S.state.ruleset) || S.createdRuleset;
  return ((S.welcome && S.welcome.rulesets) || []).find((r) => r.name === name) || null;
}

function adjustFields() {
  const rs = fightRuleset();
  return (rs && rs.adjust) || [];
}

const adjustLabels = () => adjustFields().map((f) => f.label).join(" / ") || "a value";

/** Build the adjustable fields' inputs in ``box`` unless they are there; true when built anew. */
function adjustInputs(box, prefix) {
  const fields = adjustFields();
  const key = JSON.stringify(fields);
  if (box.dataset.key === key) return false;
  box.dataset.key = key;
  box.replaceChildren(...fields.map((f) => {
    const el = fieldInput({ ...f, default: null }, prefix);
    el.dataset.adjust = f.name;
    return el;
  }));
  return true;
}

const adjustInput = (box, name) => $(`[data-adjust="${name}"] input, [data-adjust="${name}"] select`, box);

/** Show combatant ``c``'s current values in the adjustable inputs of ``box``. */
function fillAdjust(box, c) {
  for (const f of adjustFields()) {
    const el = adjustInput(box, f.name);
    const v = c && c.condition ? c.condition[f.name] : undefined;
    if (!el || v === undefined || v === null) continue;
    if (f.type === "boolean") el.checked = !!v; else el.value = String(v);
  }
}

/** The values in ``box`` that differ from combatant ``c``'s: the ``changes`` of an ``adjust``. */
function adjustChanges(box, c) {
  const changes = {};
  for (const f of adjustFields()) {
    const el = adjustInput(box, f.name);
    if (!el || !c) continue;
    const v = fieldValue(f, el);
    if (v === null || v === "" || (f.type === "integer" && Number.isNaN(v))) continue;
    if (v !== c.condition[f.name]) changes[f.name] = v;
  }
  return changes;
}

// ------------------------------------------------------------------ files: a command that takes a file (#13)
// A command spec whose field carries `x-file` (docs/protocol.md, Files) takes a file's text: the page
// offers a file picker and the roster as a drop target. `x-file.name`: the field for the file's name;
// `over`: the field naming a combatant to load the file over (a player's own); `report`: the field of
// the appended event listing what the rules could not use, shown to whoever imported the file.

function fileCommand() {
  for (const spec of S.commands || []) {
    for (const [field, schema] of Object.entries((spec.args && spec.args.properties) || {})) {
      if (schema["x-file"]) return { spec, field, file: schema["x-file"] };
    }
  }
  return null;
}

/** The GM imports new combatants or over any; a player only over its own (when the command allows it). */
function mayImport(fc) {
  if (!fc || !S.seat || !S.state || isSpectator() || S.viewSeq !== null || S.state.status === "ended") return false;
  return isGM() || (!!fc.file.over && S.seat.combatants.length > 0);
}

function renderImport() {
  const zone = $("#import-zone");
  const fc = fileCommand();
  zone.hidden = !mayImport(fc);
  if (zone.hidden) return;
  $("#import-files").accept = fc.file.accept || "";
  const what = fc.file.label || "files";
  $("#import-text").textContent = isGM()
    ? `Drop ${what} files here to add combatants (several at once), or onto a combatant to update it.`
    : `Drop a ${what} file here to update your combatant.`;
  renderImportFields(fc);
}

/** The file command's other fields a new combatant takes, as action fields: each choice (``enum``) and
 * true/false field of its spec but the file's own, its name's and ``over`` (such as side and hidden), with
 * the defaults the spec declares. Free text (an id) is left to the rules: several files go at once. */
function importFields(fc) {
  const skip = new Set([fc.field, fc.file.name, fc.file.over]);
  const fields = [];
  for (const [name, s] of Object.entries(fc.spec.args.properties || {})) {
    if (skip.has(name) || !s) continue;
    const base = { name, label: s.title || human(name), help: s.description || "", default: s.default ?? null };
    if (Array.isArray(s.enum)) fields.push({ ...base, type: "choice", choices: s.enum.map((v) => ({ value: v, label: String(v) })) });
    else if (s.type === "boolean") fields.push({ ...base, type: "boolean" });
  }
  return fields;
}

/** The GM chooses a new combatant's fields before a file is sent (a sheet sent visible reaches every
 * player at once). A hidden box follows the side until the GM ticks it: ticked for an NPC. */
function renderImportFields(fc) {
  const box = $("#import-fields");
  const fields = isGM() ? importFields(fc) : [];
  const key = JSON.stringify(fields);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...fields.map((f) => fieldInput(f, "import-")));
  box.hidden = !fields.length;
  const side = $("[name=side]", box), hidden = $("input[name=hidden]", box);
  if (side && hidden) {
    hidden.addEventListener("change", () => { hidden.dataset.touched = "1"; });
    side.addEventListener("change", () => { if (!hidden.dataset.touched) hidden.checked = side.value === "npc"; });
  }
}

/** The values of the import fields for a new combatant (none for a file loaded over a combatant). */
function importArgs(fc) {
  const args = {};
  for (const f of isGM() ? importFields(fc) : []) {
    const el = $(`#import-fields [name="${f.name}"]`);
    if (el) args[f.name] = fieldValue(f, el);
  }
  return args;
}

/** Send each file as the file command, one after the other; ``over``: the combatant to load it over. */
async function importFiles(files, over) {
  const fc = fileCommand();
  if (!mayImport(fc)) return;
  for (const file of files) {
    const args = { [fc.field]: await file.text() };
    if (fc.file.name) args[fc.file.name] = file.name;
    const target = over || (isGM() ? null : S.seat.combatants[0]);
    if (target && fc.file.over) args[fc.file.over] = target;
    else Object.assign(args, importArgs(fc));  // a new combatant's side and hiding, chosen before it is sent
    let line;
    try {
      const r = await command(fc.spec.name, args);
      await waitFor(() => S.lastSeq >= r.last_seq);
      line = importedLine(file.name, r, fc);
    } catch (err) {
      if (err.code === "client/cancelled") continue;
      line = h("li", { class: "import-error", role: "alert" }, h("b", {}, file.name), ": ", describe(err));
    }
    $("#import-report").prepend(line);
  }
}

/** What an import appended, as the log explains it, and the report field's items as a list. */
function importedLine(name, r, fc) {
  const entries = [];
  for (let seq = r.first_seq; seq <= r.last_seq; seq++) { const e = S.entries.get(seq); if (e) entries.push(e.data); }
  const left = fc.file.report ? entries.flatMap((d) => (d.event.payload || {})[fc.file.report] || []) : [];
  // With a report, its items are the news (the log has the whole explanation, which lists them too).
  return h("li", { class: "import-ok" }, h("b", {}, name), ": ",
    left.length ? `imported (event #${r.first_seq}).` : entries.map((d) => ruleText(d.explanation)),
    left.length ? h("details", { class: "import-left" }, h("summary", {}, `${fc.file.report_label || fc.file.report} (${left.length})`),
      h("ul", {}, left.map((x) => h("li", {}, String(x))))) : null);
}

function wireImport() {
  const card = $("#roster-card");
  const wanted = (e) => mayImport(fileCommand()) && e.dataTransfer && [...e.dataTransfer.types].includes("Files");
  card.addEventListener("dragover", (e) => {
    if (!wanted(e)) return;
    e.preventDefault();
    card.classList.add("dropping");
    for (const li of $$("li.combatant.drop-on", card)) li.classList.remove("drop-on");
    const li = e.target.closest && e.target.closest("li.combatant");
    if (li && controls(li.dataset.cid)) li.classList.add("drop-on");
  });
  card.addEventListener("dragleave", (e) => { if (!card.contains(e.relatedTarget)) card.classList.remove("dropping"); });
  card.addEventListener("drop", (e) => {
    if (!wanted(e)) return;
    e.preventDefault();
    card.classList.remove("dropping");
    for (const li of $$("li.combatant.drop-on", card)) li.classList.remove("drop-on");
    const li = e.target.closest && e.target.closest("li.combatant");
    importFiles([...e.dataTransfer.files], li && controls(li.dataset.cid) ? li.dataset.cid : null);
  });
  $("#import-files").addEventListener("change", (e) => {
    const files = [...e.currentTarget.files];
    e.currentTarget.value = "";
    importFiles(files, null);
  });
}

// ------------------------------------------------------------------ wiring

// ------------------------------------------------------------------ GM tools (#12)
// A panel built from `subscribed.tools` alone: the form comes from each tool's input schema (titles,
// units, ranges, choices), prefilled from a chosen combatant's numbers (sheet, condition, derived, as
// `prefill` names them); the server runs the tool (`calculate`) and its steps are shown with their rule
// ids; Apply sends the command the reply names (`apply`) for the ticked combatants.

/** The tools this seat may run: all for the GM, the players' tools for a player, none for a spectator. */
function usableTools() {
  if (!S.seat || S.seat.role === "spectator") return [];
  return (S.tools || []).filter((t) => isGM() || t.players);
}

/** A combatant's numbers a tool's `prefill` names: its sheet, overlaid by its condition, then its derived numbers. */
function toolNumbers(cid) {
  const c = S.state && S.state.combatants[cid];
  if (!c) return {};
  return { ...(c.sheet || {}), ...(c.condition || {}), ...((S.state.derived || {})[cid] || {}) };
}

/** A number a prefill path names ("skills.Climbing"), or undefined; "p/q" text is that fraction. */
function toolNumber(numbers, path) {
  let v = numbers;
  for (const part of path.split(".")) v = v && typeof v === "object" ? v[part] : undefined;
  if (typeof v === "string" && /^-?\d+(\/\d+)?$/.test(v)) {
    const [p, q] = v.split("/");
    v = Number(p) / (q ? Number(q) : 1);
  }
  return typeof v === "number" && isFinite(v) ? v : undefined;
}

function chosenTool() {
  const name = $("#tool-name") && $("#tool-name").value;
  return usableTools().find((t) => t.name === name) || null;
}

function renderTools() {
  const card = $("#tools-card");
  const tools = usableTools();
  card.hidden = !tools.length || !S.state;
  if (card.hidden) return;
  $("#tools-h").textContent = isGM() ? "GM tools" : "Tools";
  const key = JSON.stringify([S.seat.seat_id, tools.map((t) => t.name)]);
  if (S.toolsKey !== key) {
    S.toolsKey = key;
    $("#tools").replaceChildren(
      h("div", { class: "grid2" },
        h("div", null, h("label", { for: "tool-name" }, "Tool"),
          h("select", { id: "tool-name", onchange: () => showTool() },
            ...tools.map((t) => h("option", { value: t.name }, `${t.group ? t.group + ": " : ""}${t.title}`)))),
        h("div", null, h("label", { for: "tool-for" }, "Prefill from"),
          h("select", { id: "tool-for", onchange: () => prefillTool() }))),
      h("p", { id: "tool-help", class: "hint" }),
      h("form", { id: "tool-form", autocomplete: "off", onsubmit: (e) => { e.preventDefault(); runTool(); } },
        h("div", { id: "tool-fields", class: "grid2 sheet-fields" }),
        h("div", { class: "row" }, h("button", { type: "submit", id: "tool-run", class: "primary" }, "Run"))),
      h("div", { id: "tool-result", class: "tool-result", hidden: true }));
    showTool();
  }
  const who = inRosterOrder(S.state).filter((c) => isGM() || controls(c.id));
  fillSelect($("#tool-for"), [...(isGM() ? [["", "(nobody)"]] : []), ...who.map((c) => [c.id, c.name])]);
  renderToolTargets();
}

/** The chosen tool's form, built from its input schema. */
function showTool() {
  const tool = chosenTool();
  if (!tool) return;
  const props = tool.inputs.properties || {};
  $("#tool-help").textContent = `${tool.help || ""} (${tool.rules.join(", ")})`;
  $("#tool-fields").replaceChildren(...Object.entries(props).map(([name, prop]) =>
    fieldFor({ ...prop, title: (prop.title || name) + (prop["x-unit"] ? ` (${prop["x-unit"]})` : "") }, name,
             (tool.inputs.required || []).includes(name))));
  $("#tool-result").hidden = true;
  S.toolCalc = null;
  prefillTool();
}

/** Fill the inputs the tool prefills from the chosen combatant's numbers. */
function prefillTool() {
  const tool = chosenTool();
  const cid = $("#tool-for").value;
  if (!tool || !cid) return;
  const numbers = toolNumbers(cid);
  for (const [name, paths] of Object.entries(tool.prefill || {})) {
    const el = $(`#tool-fields [data-path="${name}"]`);
    // several paths: the first the combatant has (GULLIVER's Load ST where the view gives one, else ST)
    const v = [].concat(paths).map((p) => toolNumber(numbers, p)).find((n) => n !== undefined);
    if (!el) continue;
    const whole = (tool.inputs.properties[name].type || "") === "integer";
    el.value = v === undefined || (whole && !Number.isInteger(v)) ? "" : String(v);
  }
}

async function runTool() {
  const tool = chosenTool();
  if (!tool) return;
  const msg = { type: "calculate", tool: tool.name, inputs: sheetFromEditor($("#tool-fields")) };
  if ($("#tool-for").value) msg.combatant = $("#tool-for").value;
  const button = $("#tool-run");
  button.disabled = true;
  try {
    S.toolCalc = await request(msg);
    showCalculation(S.toolCalc);
  } catch (err) {
    toast(describe(err), "error");
  } finally {
    button.disabled = false;
  }
}

function showCalculation(calc) {
  const box = $("#tool-result");
  box.hidden = false;
  const value = (v) => typeof v === "boolean" ? (v ? "yes" : "no") : String(v);
  box.replaceChildren(
    h("p", { class: "tool-summary" }, calc.summary),
    h("ol", { class: "tool-steps" }, ...calc.steps.map((st) =>
      h("li", null, `${st.text} → ${value(st.value)} `, h("span", { class: "rule" }, `(${st.rule})`)))),
    h("div", { id: "tool-apply" }));
  S.toolTargetsKey = "";
  renderToolTargets();
}

/** GM, a result that hurts: tick combatants and apply it (the ruleset's apply command, an event). */
function renderToolTargets() {
  const box = $("#tool-apply");
  const calc = S.toolCalc;
  if (!box || !calc) return;
  if (!isGM() || !calc.apply) { box.replaceChildren(); return; }
  const cs = inRosterOrder(S.state);
  const key = JSON.stringify([calc.tool, calc.summary, cs.map((c) => c.id + c.name)]);
  if (S.toolTargetsKey === key) return;
  S.toolTargetsKey = key;
  const ticked = new Set([$("#tool-for").value]);
  box.replaceChildren(
    h("fieldset", { class: "tool-targets" }, h("legend", null, "Apply to"),
      ...cs.map((c) => h("label", { class: "inline" },
        h("input", { type: "checkbox", value: c.id, checked: ticked.has(c.id) }), " ", c.name))),
    h("div", { class: "row" }, h("button", { type: "button", id: "tool-apply-btn", onclick: (e) => applyTool(e.currentTarget) },
      "Apply to the ticked combatants")));
}

async function applyTool(button) {
  const calc = S.toolCalc;
  const targets = $$("#tool-apply input[type=checkbox]").filter((el) => el.checked).map((el) => el.value);
  if (!targets.length) { toast("Tick at least one combatant to apply it to.", "error"); return; }
  const r = await act(calc.apply, { tool: calc.tool, inputs: calc.inputs, targets }, undefined, button);
  if (r) toast(`${calc.summary} applied.`, "ok");
}

function wire() {
  wireRuleTexts();
  $("#create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    if (!f.elements.ruleset.value) { toast("Still waiting for the server's list of rules: try again in a moment.", "error"); return; }
    const opts = { title: f.elements.title.value.trim(), dice_mode: f.elements.dice_mode.value };
    opts.ruleset = f.elements.ruleset.value;
    const options = chosenOptions();
    if (Object.keys(options).length) opts.options = options;
    if (f.elements.server_key.value) opts.server_key = f.elements.server_key.value;
    try { await createFight(opts); } catch (err) { toast(describe(err), "error"); }
  });
  $("#demo-btn").addEventListener("click", (e) => openDemo(e.currentTarget));
  $("#edit-cancel").addEventListener("click", stopEditing);
  $("#create-ruleset").addEventListener("change", renderOptions);
  $("#join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = tokenFromText(e.currentTarget.elements.link.value);
    if (!token) { toast("That does not look like an invite link.", "error"); return; }
    join(token);
  });

  $("#add-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const el = f.elements;
    let sheet;
    if (el.sheet_json.value.trim()) {
      try { sheet = JSON.parse(el.sheet_json.value); } catch (err) { toast("The sheet is not valid JSON: " + err.message, "error"); return; }
    } else {
      sheet = sheetFromEditor($("#sheet-editor"));
    }
    const args = { name: el.name.value.trim(), side: el.side.value, sheet, hidden: el.hidden.checked };
    const editing = f.dataset.editing;
    const r = editing ? await act("update_combatant", { id: editing, ...args }, undefined, $("button[type=submit]", f))
      : await act("add_combatant", args, undefined, $("button[type=submit]", f));
    if (r && f.dataset.editing === editing) {  // unless the GM began editing another one meanwhile
      stopEditing();
      el.name.focus();
      toast(editing ? `${args.name} changed.` : `${args.name} added.`, "ok");
    }
  });
  $$("[data-undo]").forEach((b) => b.addEventListener("click", () => act("undo", { to: b.dataset.undo }, undefined, b)));
  $("#redo-btn").addEventListener("click", (e) => act("redo", {}, undefined, e.currentTarget));
  $("#undo-to-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const seq = Number(e.currentTarget.elements.seq.value);
    const later = S.lastSeq - seq;  // as the log's "Undo after" asks: a typo here can revert the whole fight
    if (later > 0 && !confirm(`Undo everything after event #${seq} (${later} event${later === 1 ? "" : "s"})?`)) return;
    act("undo", { to: "seq", seq }, undefined, $("button", e.currentTarget));
  });
  const adj = $("#adjust-form");
  adj.elements.combatant.addEventListener("change", () => fillAdjust($("#adjust-fields"), S.state && S.state.combatants[adj.elements.combatant.value]));
  adj.addEventListener("submit", async (e) => {
    e.preventDefault();
    const el = adj.elements;
    const c = S.state.combatants[el.combatant.value];
    const changes = adjustChanges($("#adjust-fields"), c);
    if (!Object.keys(changes).length) { toast(`Nothing to change: set a new ${adjustLabels()}.`, "error"); return; }
    const r = await act("adjust", { combatant: c.id, changes, reason: el.reason.value.trim() }, undefined, $("button[type=submit]", adj));
    if (r) el.reason.value = "";
  });
  $("#note-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const r = await act("note", { text: f.elements.text.value.trim() }, undefined, $("button", f));
    if (r) f.elements.text.value = "";
  });
  $("#end-btn").addEventListener("click", (e) => { if (confirm("End the fight for everyone?")) act("end_fight", { reason: "ended by the GM" }, undefined, e.currentTarget); });

  const scrub = $("#scrubber");
  let scrubTimer = null;
  scrub.addEventListener("input", () => {
    $("#scrub-label").textContent = `event ${scrub.value} of ${S.lastSeq}`;
    clearTimeout(scrubTimer);
    scrubTimer = setTimeout(() => scrubTo(Number(scrub.value)), 120);
  });
  $("#live-btn").addEventListener("click", backToLive);
  wireImport();
  wireLog();
  $$("dialog .cancel").forEach((b) => b.addEventListener("click", () => b.closest("dialog").close()));
  window.addEventListener("hashchange", () => {
    const token = tokenFromText(location.hash);
    if (token && token !== S.token) join(token);
  });
}

function boot() {
  wire();
  const token = tokenFromText(location.hash) || tokenFromText(location.search);
  if (token) {
    S.token = token;
    history.replaceState(null, "", location.pathname + "#token=" + encodeURIComponent(token));
    $("#landing").hidden = true;
  } else {
    showLanding();
  }
  connect();
}

// ------------------------------------------------------------------ rule texts (issue #13)
// A rule id anywhere in the page is a button opening the ruleset's own short explanation of it,
// from welcome.rulesets[].rule_texts (docs/protocol.md); the page itself knows no rule. An id
// the ruleset has no text for stays a plain badge.

/** The {title, text} of rule ``id`` in the fight's ruleset (before a fight: the one chosen to create it);
 * never another ruleset's, whose ids may mean something else. */
function ruleInfo(id) {
  const rs = S.state ? fightRuleset()
    : ((S.welcome && S.welcome.rulesets) || []).find((r) => r.name === ($("#create-ruleset") || {}).value);
  return (rs && rs.rule_texts && rs.rule_texts[id]) || null;
}

function ruleRef(id) {
  const info = ruleInfo(id);
  if (!info) return h("abbr", { class: "rule", title: `rule ${id} in the rules catalogue` }, id);
  return h("button", { type: "button", class: "rule", dataset: { rule: id }, "aria-haspopup": "dialog",
    "aria-expanded": "false", title: `${id}: ${info.title}` }, id);
}

function rulePopover() {
  let pop = $("#rule-pop");
  if (!pop) {
    pop = h("div", { id: "rule-pop", class: "rule-pop", role: "dialog", "aria-labelledby": "rule-pop-title", tabindex: "-1", hidden: true },
      h("div", { class: "rule-pop-head" }, h("span", { id: "rule-pop-title", class: "rule-pop-title" }),
        h("button", { type: "button", class: "link rule-pop-close", "aria-label": "Close the rule", onclick: () => closeRule() }, "×")),
      h("p", { id: "rule-pop-text" }));
    // Not modal: focus moving elsewhere closes it; Tab past its end (or Shift+Tab before it) goes back to
    // its id, so the keyboard carries on from where the popover belongs in the page.
    pop.addEventListener("focusout", (e) => {
      if (e.relatedTarget && !pop.contains(e.relatedTarget) && e.relatedTarget !== S.ruleOpener) closeRule(false);
    });
    pop.addEventListener("keydown", (e) => {
      if (e.key !== "Tab") return;
      const atEnd = !e.shiftKey && e.target.classList.contains("rule-pop-close");
      if (atEnd || (e.shiftKey && e.target === pop)) { e.preventDefault(); closeRule(); }
    });
    document.body.append(pop);
  }
  return pop;
}

function openRule(button) {
  const id = button.dataset.rule, info = ruleInfo(id);
  if (!info) return;
  closeRule(false);
  const pop = rulePopover();
  $("#rule-pop-title", pop).textContent = `${id} · ${info.title}`;
  $("#rule-pop-text", pop).replaceChildren(...ruleText(info.text));
  pop.dataset.rule = id;
  pop.hidden = false;
  S.ruleOpener = button;
  button.setAttribute("aria-expanded", "true");
  const r = button.getBoundingClientRect();
  const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - pop.offsetWidth - 8));
  pop.style.left = `${left}px`;
  pop.style.top = `${r.bottom + window.scrollY + 4}px`;
  pop.focus();
}

/** Close the popover; focus goes back to the id that opened it (keyboard users stay where they were). */
function closeRule(refocus = true) {
  const pop = $("#rule-pop");
  if (!pop || pop.hidden) return;
  pop.hidden = true;
  const opener = S.ruleOpener;
  S.ruleOpener = null;
  if (opener) opener.setAttribute("aria-expanded", "false");
  if (refocus && opener && opener.isConnected) opener.focus();
}

function wireRuleTexts() {
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("button.rule[data-rule]");
    if (button) {
      e.preventDefault();
      if (S.ruleOpener === button) closeRule(); else openRule(button);
    } else if (S.ruleOpener && !e.target.closest("#rule-pop")) {
      closeRule(false);
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && S.ruleOpener) { e.preventDefault(); e.stopPropagation(); closeRule(); }
  }, true);
}

// For the browser tests and the curious: the page's state, read-only by convention.
window.combatClient = S;
boot();
