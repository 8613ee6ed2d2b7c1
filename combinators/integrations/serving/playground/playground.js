// The playground: a form from the input schema, a run through stream_events (fetch and a
// streaming SSE reader: EventSource cannot POST), the output as it streams, the run tree as
// it grows, and errors with their type. Plain JavaScript, no build step.
"use strict";

const base = location.pathname.replace(/playground\/[^/]*$/, "");
const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "combinators.token";
let controller = null;

function headers(extra) {
  const out = Object.assign({}, extra || {});
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) out["authorization"] = "Bearer " + token;
  return out;
}

function request(path, options) {
  return fetch(base + path, Object.assign({ credentials: "same-origin" }, options, {
    headers: headers((options || {}).headers),
  }));
}

// ---------------------------------------------------------------- the form

function kindOf(schema) {
  if (!schema || typeof schema !== "object") return "json";
  if (Array.isArray(schema.enum)) return "enum";
  if (schema.type === "string") return "string";
  if (schema.type === "integer" || schema.type === "number") return "number";
  if (schema.type === "boolean") return "boolean";
  return "json";
}

function field(name, schema, required) {
  const kind = kindOf(schema);
  const label = document.createElement("label");
  label.className = "field";
  const caption = document.createElement("span");
  caption.textContent = name === "" ? "input" : name;
  if (required) caption.textContent += " *";
  label.appendChild(caption);
  let control;
  if (kind === "string") {
    control = document.createElement("textarea");
    control.rows = name === "" ? 4 : 2;
  } else if (kind === "number") {
    control = document.createElement("input");
    control.type = "number";
    if (schema.type === "integer") control.step = "1";
  } else if (kind === "boolean") {
    control = document.createElement("input");
    control.type = "checkbox";
  } else if (kind === "enum") {
    control = document.createElement("select");
    for (const value of schema.enum) {
      const option = document.createElement("option");
      option.value = JSON.stringify(value);
      option.textContent = String(value);
      control.appendChild(option);
    }
  } else {
    control = document.createElement("textarea");
    control.rows = 4;
    control.placeholder = "JSON";
    control.className = "json";
  }
  control.name = name;
  control.dataset.kind = kind;
  if (schema && schema.type === "integer") control.dataset.integer = "1";
  label.appendChild(control);
  return label;
}

function buildForm(schema) {
  const fields = $("fields");
  fields.textContent = "";
  const properties = schema && schema.type === "object" && schema.properties;
  if (properties && Object.keys(properties).length) {
    const required = new Set(schema.required || []);
    for (const [name, property] of Object.entries(properties)) {
      fields.appendChild(field(name, property, required.has(name)));
    }
    fields.dataset.shape = "object";
  } else {
    fields.appendChild(field("", schema, true));
    fields.dataset.shape = "value";
  }
}

function readControl(control) {
  const kind = control.dataset.kind;
  if (kind === "boolean") return control.checked;
  if (kind === "enum") return JSON.parse(control.value);
  if (kind === "number") {
    if (control.value === "") return undefined;
    return control.dataset.integer ? parseInt(control.value, 10) : Number(control.value);
  }
  if (kind === "string") return control.value;
  if (control.value.trim() === "") return undefined;
  try {
    return JSON.parse(control.value);
  } catch (error) {
    throw new Error((control.name || "input") + " is not valid JSON: " + error.message);
  }
}

function readInput() {
  const fields = $("fields");
  const controls = fields.querySelectorAll("[data-kind]");
  if (fields.dataset.shape === "value") return readControl(controls[0]);
  const value = {};
  for (const control of controls) {
    const read = readControl(control);
    if (read !== undefined) value[control.name] = read;
  }
  return value;
}

// ---------------------------------------------------------------- showing a run

const runs = new Map();
let rootId = null;
let streamed = false;

function reset() {
  runs.clear();
  rootId = null;
  streamed = false;
  $("output").textContent = "";
  $("tree").textContent = "";
  $("error").hidden = true;
}

function chunkText(chunk) {
  if (typeof chunk === "string") return chunk;
  if (chunk && typeof chunk === "object" && chunk.__combinators__ && chunk.kwargs) {
    const content = chunk.kwargs.content;
    if (typeof content === "string") return content;
  }
  return JSON.stringify(chunk) + "\n";
}

function showError(type, message, status) {
  $("error").hidden = false;
  $("error-type").textContent = type;
  $("error-status").textContent = status ? "(" + status + ")" : "";
  $("error-message").textContent = message;
}

function startRun(event, kind) {
  const item = document.createElement("li");
  item.className = "run running";
  item.dataset.runId = event.run_id;
  const line = document.createElement("div");
  line.className = "line";
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = event.name;
  const badge = document.createElement("span");
  badge.className = "type " + kind;
  badge.textContent = kind;
  const time = document.createElement("span");
  time.className = "time";
  time.textContent = "running";
  line.append(name, badge, time);
  const children = document.createElement("ul");
  item.append(line, children);
  const parentId = event.parent_ids.length ? event.parent_ids[event.parent_ids.length - 1] : null;
  const parent = parentId && runs.get(parentId);
  (parent ? parent.children : $("tree")).appendChild(item);
  runs.set(event.run_id, { item, time, children, started: performance.now() });
}

function endRun(event, failed) {
  const run = runs.get(event.run_id);
  if (!run) return;
  const ms = performance.now() - run.started;
  run.time.textContent = ms < 1000 ? ms.toFixed(0) + " ms" : (ms / 1000).toFixed(2) + " s";
  run.item.classList.remove("running");
  run.item.classList.add(failed ? "failed" : "done");
  if (failed && event.data && event.data.error) {
    run.time.textContent += " · " + (event.data.error.type || "error");
  }
}

function onEvent(event) {
  const match = /^on_(.+)_(start|stream|end|error)$/.exec(event.event || "");
  if (!match) return;
  const [, kind, phase] = match;
  if (phase === "start") {
    if (!event.parent_ids.length) rootId = event.run_id;
    startRun(event, kind);
  } else if (phase === "stream" && event.run_id === rootId) {
    streamed = true;
    $("output").textContent += chunkText(event.data.chunk);
  } else if (phase === "end") {
    endRun(event, false);
    if (event.run_id === rootId && !streamed) $("output").textContent = chunkText(event.data.output);
  } else if (phase === "error") {
    endRun(event, true);
  }
}

// ---------------------------------------------------------------- server-sent events

async function readFrames(response, onFrame) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let name = null;
  let data = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop();
    for (const line of lines) {
      if (line === "") {
        if (name !== null || data !== null) onFrame(name || "data", data);
        name = null;
        data = null;
      } else if (!line.startsWith(":")) {
        const at = line.indexOf(":");
        const key = at < 0 ? line : line.slice(0, at);
        let text = at < 0 ? "" : line.slice(at + 1);
        if (text.startsWith(" ")) text = text.slice(1);
        if (key === "event") name = text;
        else if (key === "data") data = data === null ? text : data + "\n" + text;
      }
    }
  }
}

async function run(event) {
  event.preventDefault();
  let input;
  reset();
  try {
    input = readInput();
  } catch (error) {
    showError("InvalidInput", error.message);
    return;
  }
  controller = new AbortController();
  $("run").disabled = true;
  $("stop").disabled = false;
  $("status").textContent = "running…";
  let ended = false;
  let failed = false;
  try {
    const response = await request("stream_events", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ input }),
      signal: controller.signal,
    });
    if (!response.ok) {
      let body = {};
      try { body = await response.json(); } catch (ignored) { /* not JSON */ }
      const detail = (body.detail || []).map((d) => (d.loc || []).join(".") + ": " + d.msg).join("\n");
      showError(body.type || "HTTP " + response.status, [body.message, detail].filter(Boolean).join("\n"), response.status);
      return;
    }
    await readFrames(response, (name, data) => {
      if (name === "data") onEvent(JSON.parse(data));
      else if (name === "error") {
        const info = JSON.parse(data);
        showError(info.type, info.message, info.status_code);
        failed = true;
      } else if (name === "end") ended = true;
    });
    $("status").textContent = failed ? "failed" : ended ? "done" : "the stream broke off";
  } catch (error) {
    if (error.name === "AbortError") $("status").textContent = "stopped";
    else showError(error.name || "Error", error.message);
  } finally {
    $("run").disabled = false;
    $("stop").disabled = true;
    document.body.dataset.state = "idle";
    controller = null;
  }
}

async function loadSchema() {
  const response = await request("input_schema");
  if (!response.ok) {
    $("fields").textContent = "";
    const why = response.status === 401 ? "Unauthorized" : "HTTP " + response.status;
    showError(why, "could not read the input schema", response.status);
    return;
  }
  $("error").hidden = true;
  buildForm(await response.json());
  document.body.dataset.state = "idle";
}

function init() {
  $("route").textContent = base;
  $("token").value = sessionStorage.getItem(TOKEN_KEY) || "";
  $("token").addEventListener("change", () => {
    const token = $("token").value.trim();
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
    loadSchema();
  });
  $("form").addEventListener("submit", (event) => {
    document.body.dataset.state = "running";
    run(event);
  });
  $("stop").addEventListener("click", () => controller && controller.abort());
  loadSchema();
}

init();
