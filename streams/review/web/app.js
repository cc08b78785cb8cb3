// The review page. Claim text is hostile input: it only ever reaches the page through
// textContent and DOM nodes, never as HTML. The session cookie is HttpOnly; this script
// holds only the session's CSRF token, sent as X-CSRF-Token on every POST/DELETE.
"use strict";

const state = { csrf: "", items: [], selected: 0, cursor: null, timer: null, busy: false };
const REFRESH_MS = 5000;
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (method !== "GET") headers["X-CSRF-Token"] = state.csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  if (response.status !== 204) {
    try { data = await response.json(); } catch (e) { data = null; }
  }
  return { status: response.status, data };
}

function show(id, visible) { $(id).hidden = !visible; }
function say(text) { $("status").textContent = text; }

async function start() {
  $("sign-in-form").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", signOut);
  $("more").addEventListener("click", () => load(true));
  document.addEventListener("keydown", onKey);
  const me = await api("GET", "/api/v1/session");
  if (me.status === 200) { signedIn(me.data); } else { show("sign-in", true); }
}

async function signIn(event) {
  event.preventDefault();
  const token = $("token").value.trim();
  const res = await api("POST", "/api/v1/session", { token });
  $("token").value = "";
  if (res.status === 200) { signedIn(res.data); }
  else { $("sign-in-error").textContent = "Sign-in failed: the token was not accepted."; }
}

function signedIn(me) {
  state.csrf = me.csrf_token;
  $("who").textContent = me.user_id + " @ " + me.tenant_id + (me.admin ? " (tenant admin)" : "");
  show("sign-in", false); show("queue", true); show("sign-out", true);
  load(false);
  state.timer = setInterval(() => { if (!state.busy) load(false); }, REFRESH_MS);
}

async function signOut() {
  await api("DELETE", "/api/v1/session");
  clearInterval(state.timer);
  state.csrf = ""; state.items = [];
  $("items").replaceChildren();
  $("who").textContent = "";
  show("queue", false); show("sign-out", false); show("sign-in", true);
}

// A refresh fetches the first page again; the selection follows its claim (render).
async function load(older) {
  const params = new URLSearchParams({ limit: "20" });
  if (older && state.cursor) params.set("cursor", state.cursor);
  const res = await api("GET", "/api/v1/pending?" + params.toString());
  if (res.status === 401) { location.reload(); return; }
  if (res.status !== 200) { say("Could not load the queue (" + res.status + ")."); return; }
  if (older) {
    const known = new Set(state.items.map((i) => i.queue_id));
    state.items = state.items.concat(res.data.items.filter((i) => !known.has(i.queue_id)));
  } else {
    state.items = res.data.items;
  }
  state.cursor = res.data.next_cursor;
  render();
}

function render() {
  const selectedId = state.items[state.selected] ? state.items[state.selected].queue_id : null;
  const list = $("items");
  list.replaceChildren(...state.items.map(renderItem));
  const idx = state.items.findIndex((i) => i.queue_id === selectedId);
  state.selected = Math.max(0, Math.min(idx >= 0 ? idx : state.selected, state.items.length - 1));
  show("empty", state.items.length === 0);
  show("more", Boolean(state.cursor));
  highlight();
}

function text(tag, value, cls) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  el.textContent = value;
  return el;
}

function renderItem(item, index) {
  const node = $("item-template").content.firstElementChild.cloneNode(true);
  node.dataset.queueId = item.queue_id;
  node.querySelector(".reason-code").textContent = item.validation.reason_code;
  node.querySelector(".meta").textContent =
    item.source + " · " + item.memory_type + " · " + new Date(item.submitted_at).toLocaleString();
  node.querySelector(".content").textContent = item.content;
  node.querySelector(".reason").textContent = item.validation.reason;
  const checks = node.querySelector(".checks");
  for (const check of item.validation.checks_failed) checks.appendChild(text("li", check));
  if (item.duplicate_of) {
    const dup = node.querySelector(".duplicate");
    const sim = item.similarity ? " (similarity " + Number(item.similarity).toFixed(2) + ")" : "";
    const what = item.duplicate_content ? ": “" + item.duplicate_content + "”" : "";
    dup.textContent = "Nearly duplicates " + item.duplicate_of + sim + what;
    dup.hidden = false;
  }
  const turns = node.querySelector(".turns");
  for (const turn of item.source_turns) turns.appendChild(renderTurn(turn, item.grounding.evidence_spans));
  node.querySelector(".approve").addEventListener("click", () => decide(index, "approve"));
  node.querySelector(".reject").addEventListener("click", () => openReject(index));
  node.querySelector(".reject-form").addEventListener("submit", (event) => {
    event.preventDefault();
    decide(index, "reject", node.querySelector(".reject-reason").value);
  });
  node.addEventListener("click", () => { state.selected = index; highlight(); });
  return node;
}

// Evidence spans are code-point offsets into the turn's text (Python strings): slice an
// array of code points, not UTF-16 units, and add each piece as a text node.
function renderTurn(turn, spans) {
  const box = document.createElement("div");
  box.className = "turn";
  box.appendChild(text("span", turn.id + (turn.source ? " · " + turn.source : ""), "turn-id"));
  const chars = Array.from(turn.text);
  const mine = spans.filter((s) => s.turn_id === turn.id && s.start < s.end)
    .sort((a, b) => a.start - b.start);
  let pos = 0;
  for (const span of mine) {
    const start = Math.max(span.start, pos);
    const end = Math.min(span.end, chars.length);
    if (start >= end) continue;
    box.appendChild(document.createTextNode(chars.slice(pos, start).join("")));
    box.appendChild(text("mark", chars.slice(start, end).join("")));
    pos = end;
  }
  box.appendChild(document.createTextNode(chars.slice(pos).join("")));
  return box;
}

function highlight() {
  const nodes = $("items").children;
  for (let i = 0; i < nodes.length; i++) nodes[i].classList.toggle("selected", i === state.selected);
  if (nodes[state.selected]) nodes[state.selected].scrollIntoView({ block: "nearest" });
}

function openReject(index) {
  state.selected = index; highlight();
  const node = $("items").children[index];
  if (!node) return;
  state.busy = true;
  const form = node.querySelector(".reject-form");
  form.hidden = false;
  form.querySelector(".reject-reason").focus();
}

async function decide(index, decision, reason) {
  const item = state.items[index];
  if (!item) return;
  if (decision === "reject" && !(reason || "").trim()) { say("A reject needs a reason."); return; }
  state.busy = true;
  const path = "/api/v1/pending/" + encodeURIComponent(item.queue_id) + "/" + decision;
  const res = await api("POST", path, decision === "reject" ? { reason } : {});
  state.busy = false;
  if (res.status === 200) {
    say((decision === "approve" ? "Approved: " : "Rejected: ") + item.content);
    state.items = state.items.filter((i) => i.queue_id !== item.queue_id);
    render();
  } else if (res.status === 404) {
    say("That claim is no longer pending.");
    load(false);
  } else {
    say("The decision failed (" + res.status + ").");
  }
}

function onKey(event) {
  if ($("queue").hidden) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) {
    if (event.key === "Escape") {
      target.closest("form").hidden = true;
      state.busy = false;
      target.blur();
    }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "j") { state.selected = Math.min(state.selected + 1, state.items.length - 1); highlight(); }
  else if (event.key === "k") { state.selected = Math.max(state.selected - 1, 0); highlight(); }
  else if (event.key === "a") { event.preventDefault(); decide(state.selected, "approve"); }
  else if (event.key === "r") { event.preventDefault(); openReject(state.selected); }
}

document.addEventListener("DOMContentLoaded", start);
