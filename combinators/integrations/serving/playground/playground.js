// The playground: a run through stream_events (fetch and a streaming SSE reader: EventSource
// cannot POST), the run tree as it grows, and the output shown for what it is: a chat for
// message-in/message-out chains, documents with their metadata, an agent's steps under its
// answer, any other value as a collapsible tree. Plain JavaScript, no build step.
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

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------- reading wire values

// Values arrive in LangServe's form (a message is {"type": "ai", "content": ...}, a document
// {"type": "Document", "page_content", "metadata"}, Success/Failure {"ok", "value"|"error"}).
// A user's own attrs class comes in this library's envelope {"__combinators__": 1, "id": ...,
// "kwargs": ...}; revive() turns it into the same form, so everything below reads one shape.
const TAGS = {
  HumanMessage: "human", AIMessage: "ai", SystemMessage: "system", ToolMessage: "tool",
  ChatMessage: "chat", FunctionMessage: "function", Document: "Document",
  StringPromptValue: "StringPromptValue", ChatPromptValue: "ChatPromptValueConcrete",
};
const ROLES = {
  human: "human", ai: "ai", system: "system", tool: "tool", chat: "other", function: "tool",
  HumanMessageChunk: "human", AIMessageChunk: "ai", SystemMessageChunk: "system",
  ToolMessageChunk: "tool", ChatMessageChunk: "other", FunctionMessageChunk: "tool",
};

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function revive(value) {
  if (Array.isArray(value)) return value.map(revive);
  if (!isObject(value)) return value;
  if (value.__combinators__ && value.type === "constructor" && typeof value.id === "string") {
    const cls = value.id.split(".").pop();
    const fields = revive(value.kwargs || {});
    if (cls.endsWith("MessageChunk")) return Object.assign({ type: cls }, fields);
    if (TAGS[cls]) return Object.assign({ type: TAGS[cls] }, fields);
    return Object.keys(fields).length ? fields : cls; // a value with no fields reads as its name
  }
  const out = {};
  for (const [key, item] of Object.entries(value)) out[key] = revive(item);
  return out;
}

function isMessage(value) {
  return isObject(value) && typeof value.type === "string" && value.type in ROLES && "content" in value;
}

function isDocument(value) {
  return isObject(value) && typeof value.page_content === "string" && (value.type === "Document" || isObject(value.metadata));
}

function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === "string" ? part : isObject(part) && typeof part.text === "string" ? part.text : "")).join("");
  }
  return "";
}

function chunkText(chunk) {
  if (typeof chunk === "string") return chunk;
  if (isMessage(chunk)) return contentText(chunk.content);
  return null;
}

function compact(value) {
  if (typeof value === "string") return value;
  if (isMessage(value)) return contentText(value.content);
  if (isObject(value) && "ok" in value && ("value" in value || "error" in value)) {
    return value.ok ? compact(value.value) : "error: " + compact(value.error);
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------- schemas

function resolve(schema, root) {
  if (isObject(schema) && typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
    let target = root;
    for (const part of schema.$ref.slice(2).split("/")) target = isObject(target) ? target[part] : undefined;
    return isObject(target) ? target : {};
  }
  return schema;
}

function branches(schema, root) {
  schema = resolve(schema, root);
  if (!isObject(schema)) return [];
  const alternatives = schema.anyOf || schema.oneOf;
  if (Array.isArray(alternatives)) return alternatives.flatMap((one) => branches(one, root));
  return [schema];
}

function describesMessage(schema, root) {
  return branches(schema, root).some((one) => isObject(one.properties) && "content" in one.properties);
}

const HISTORY_NAMES = ["messages", "history", "chat_history"];

function messageList(schema, root, name) {
  return branches(schema, root).some(
    (one) => one.type === "array" && (describesMessage(one.items, root) || HISTORY_NAMES.includes(name)),
  );
}

// A chain is chatted with when its input may be a list of messages (a chat model, a chain
// that starts with one), or is an object with one list of messages (``messages``,
// ``history``...) and at most one other required field, a string: the new message (as a
// prompt with a history placeholder and a ``{question}`` takes it). The page keeps the
// history and sends all of it each turn. Returns how to build a turn's input, or null.
function chatShape(schema) {
  if (branches(schema, schema).some((one) => one.type === "array" && describesMessage(one.items, schema))) {
    return { history: null, question: null };
  }
  const shape = resolve(schema, schema);
  if (!isObject(shape) || shape.type !== "object" || !isObject(shape.properties)) return null;
  const names = Object.keys(shape.properties);
  const lists = names.filter((name) => messageList(shape.properties[name], schema, name));
  if (lists.length !== 1) return null;
  const others = (shape.required || []).filter((name) => name !== lists[0]);
  if (others.length > 1) return null;
  if (others.length === 1 && !branches(shape.properties[others[0]], schema).some((one) => one.type === "string")) return null;
  return { history: lists[0], question: others.length ? others[0] : null };
}

function chatInput(shape, text) {
  const message = { type: "human", content: text };
  if (shape.history === null) return history.concat([message]);
  if (shape.question === null) return { [shape.history]: history.concat([message]) };
  return { [shape.history]: history.slice(), [shape.question]: text };
}

// ---------------------------------------------------------------- forms

function kindOf(schema) {
  if (!isObject(schema)) return "json";
  if (Array.isArray(schema.enum)) return "enum";
  if (schema.type === "string") return "string";
  if (schema.type === "integer" || schema.type === "number") return "number";
  if (schema.type === "boolean") return "boolean";
  if (Object.keys(schema).every((key) => ["title", "description", "default"].includes(key))) return "any";
  // Text or JSON (an agent takes a string, a list of messages or an object): text is a string
  // unless it reads as a JSON list or object.
  if (branches(schema, schema).some((one) => one.type === "string")) return "text";
  return "json";
}

function field(name, schema, required, optional) {
  schema = isObject(schema) ? schema : {};
  let kind = kindOf(schema);
  if (optional && kind === "boolean") kind = "enum"; // unset, true or false
  const label = element("label", "field");
  const caption = element("span", "", schema.title && optional ? schema.title : name === "" ? "input" : name);
  if (required) caption.textContent += " *";
  if (schema.description) caption.appendChild(element("small", "", schema.description));
  label.appendChild(caption);
  let control;
  if ((kind === "string" || kind === "text") && !optional) {
    control = element("textarea");
    control.rows = name === "" ? 4 : 2;
    if (kind === "text") control.placeholder = "text, or a JSON list or object";
  } else if (kind === "string" || kind === "any") {
    control = element("input");
    control.type = "text";
  } else if (kind === "number") {
    control = element("input");
    control.type = "number";
    if (schema.type === "integer") control.step = "1";
    else control.step = "any";
  } else if (kind === "boolean") {
    control = element("input");
    control.type = "checkbox";
  } else if (kind === "enum") {
    control = element("select");
    if (optional) control.appendChild(Object.assign(element("option", "", "(server default)"), { value: "" }));
    for (const value of Array.isArray(schema.enum) ? schema.enum : [true, false]) {
      const option = element("option", "", String(value));
      option.value = JSON.stringify(value);
      control.appendChild(option);
    }
  } else {
    control = element("textarea");
    control.rows = 4;
    control.placeholder = "JSON";
    control.className = "json";
  }
  if (optional && "default" in schema && kind !== "enum" && kind !== "boolean") {
    control.placeholder = "default: " + (typeof schema.default === "string" ? schema.default : JSON.stringify(schema.default));
  }
  control.name = name;
  control.dataset.kind = kind;
  if (schema.type === "integer") control.dataset.integer = "1";
  label.appendChild(control);
  return label;
}

function buildForm(schema) {
  const fields = $("fields");
  fields.textContent = "";
  const shape = resolve(schema, schema);
  const properties = isObject(shape) && shape.type === "object" && shape.properties;
  if (properties && Object.keys(properties).length) {
    const required = new Set(shape.required || []);
    for (const [name, property] of Object.entries(properties)) {
      fields.appendChild(field(name, resolve(property, schema), required.has(name), false));
    }
    fields.dataset.shape = "object";
  } else {
    fields.appendChild(field("", shape, true, false));
    fields.dataset.shape = "value";
  }
}

function readControl(control) {
  const kind = control.dataset.kind;
  if (kind === "boolean") return control.checked;
  if (kind === "enum") return control.value === "" ? undefined : JSON.parse(control.value);
  if (kind === "number") {
    if (control.value === "") return undefined;
    return control.dataset.integer ? parseInt(control.value, 10) : Number(control.value);
  }
  if (kind === "string") return control.type === "text" && control.value === "" ? undefined : control.value;
  if (kind === "text" && !/^\s*[[{]/.test(control.value)) return control.value;
  if (control.value.trim() === "") return undefined;
  try {
    return JSON.parse(control.value);
  } catch (error) {
    if (kind === "any") return control.value; // any value: text that is not JSON is a string
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

// Only the ids the server lets clients set are in its config_schema; the form shows those.
function buildConfig(schema) {
  const configurable = isObject(schema) && isObject(schema.properties) && resolve(schema.properties.configurable, schema);
  const ids = isObject(configurable) && isObject(configurable.properties) ? configurable.properties : {};
  const fields = $("config-fields");
  fields.textContent = "";
  for (const [id, property] of Object.entries(ids)) fields.appendChild(field(id, resolve(property, schema), false, true));
  const shared = sharedConfig(); // a share link's settings fill the form (the server applies them too)
  for (const control of fields.querySelectorAll("[data-kind]")) {
    if (shared && Object.prototype.hasOwnProperty.call(shared, control.name)) setControl(control, shared[control.name]);
  }
  const any = Object.keys(ids).length > 0;
  $("config-panel").hidden = !any;
  if (any) document.body.dataset.config = "";
  else delete document.body.dataset.config;
}

function readConfig() {
  const configurable = {};
  for (const control of $("config-fields").querySelectorAll("[data-kind]")) {
    const read = readControl(control);
    if (read !== undefined) configurable[control.name] = read;
  }
  return Object.keys(configurable).length ? { configurable } : null;
}

// ---------------------------------------------------------------- share links

// lz-string's compressToEncodedURIComponent (LangServe's share links carry a config so):
// a dictionary coder over the string's UTF-16 code units, written as 6-bit URL-safe
// characters, the lowest bit of each value first. The server reads it back
// (config_hash.py), keeping only what clients may set.
const LZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

function lzEncode(text) {
  const out = [];
  let bits = 0, position = 0;
  const write = (value, count) => {
    for (let i = 0; i < count; i++) {
      bits = (bits << 1) | (value & 1);
      value >>= 1;
      if (position === 5) { out.push(LZ_ALPHABET[bits]); position = 0; bits = 0; } else position++;
    }
  };
  const dictionary = new Map();
  const fresh = new Set();
  let size = 3, width = 2, enlargeIn = 2, word = "";
  const grow = () => { if (--enlargeIn === 0) { enlargeIn = 1 << width; width++; } };
  const emit = (w) => {
    if (fresh.has(w)) {
      const unit = w.charCodeAt(0);
      write(unit < 256 ? 0 : 1, width);
      write(unit, unit < 256 ? 8 : 16);
      grow();
      fresh.delete(w);
    } else write(dictionary.get(w), width);
    grow();
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charAt(i);
    if (!dictionary.has(unit)) { dictionary.set(unit, size++); fresh.add(unit); }
    if (dictionary.has(word + unit)) { word += unit; continue; }
    emit(word);
    dictionary.set(word + unit, size++);
    word = unit;
  }
  if (word !== "") emit(word);
  write(2, width);
  for (;;) {
    bits <<= 1;
    if (position === 5) { out.push(LZ_ALPHABET[bits]); break; }
    position++;
  }
  return out.join("");
}

// lz-string's decompressFromEncodedURIComponent (config_hash.py's twin): null when the text
// is not its output or decodes to more than 65536 characters.
function lzDecode(text) {
  const values = Array.from(text, (char) => LZ_ALPHABET.indexOf(char));
  if (values.some((v) => v < 0)) return null;
  let value = values.length ? values[0] : 0, position = 32, index = 1, size = 0;
  const read = (count) => {
    let bits = 0;
    for (let shift = 0; shift < count; shift++) {
      const bit = value & position;
      position >>= 1;
      if (position === 0) { position = 32; value = index < values.length ? values[index] : 0; index++; }
      if (bit) bits |= 1 << shift;
    }
    return bits;
  };
  const first = read(2);
  if (first === 2) return "";
  if (first > 1) return null;
  let entry = String.fromCharCode(read(first === 0 ? 8 : 16));
  const dictionary = ["", "", "", entry], words = [entry];
  let previous = entry, enlargeIn = 4, width = 3;
  for (;;) {
    if (index > values.length) return null;
    let code = read(width);
    if (code === 0 || code === 1) {
      dictionary.push(String.fromCharCode(read(code === 0 ? 8 : 16)));
      code = dictionary.length - 1;
      enlargeIn--;
    } else if (code === 2) return words.join("");
    if (enlargeIn === 0) { enlargeIn = 1 << width; width++; }
    if (code > 2 && code < dictionary.length) entry = dictionary[code];
    else if (code === dictionary.length) entry = previous + previous.charAt(0);
    else return null;
    size += entry.length;
    if (size > 65536) return null;
    words.push(entry);
    dictionary.push(previous + entry.charAt(0));
    enlargeIn--;
    previous = entry;
    if (enlargeIn === 0) { enlargeIn = 1 << width; width++; }
  }
}

// The config of a page opened from a share link (<path>/c/<hash>/playground/), or null.
function sharedConfig() {
  const found = /\/c\/([A-Za-z0-9+$-]+)\/$/.exec(base);
  const text = found && lzDecode(found[1]);
  try {
    const config = text ? JSON.parse(text) : null;
    return isObject(config) && isObject(config.configurable) ? config.configurable : null;
  } catch (ignored) {
    return null;
  }
}

// Shows a value in a control built by field() (what readControl reads back).
function setControl(control, value) {
  const kind = control.dataset.kind;
  if (kind === "boolean") control.checked = value === true;
  else if (kind === "enum") control.value = JSON.stringify(value);
  else if (kind === "number") control.value = String(value);
  else control.value = typeof value === "string" ? value : JSON.stringify(value);
}

// The playground's link with the configuration chosen (only the ids the server lets
// clients set are in the form), at <path>/c/<hash>/playground/ as LangServe's.
function shareLink() {
  const root = base.replace(/\/c\/[A-Za-z0-9+$-]+\/$/, "/"); // a page opened from a share link
  const config = readConfig();
  const at = config ? root + "c/" + lzEncode(JSON.stringify(config)) + "/" : root;
  return location.origin + at + "playground/";
}

function share() {
  withRead(shareLink, (link) => {
    const box = $("share-link");
    box.value = link;
    box.hidden = false;
    box.select();
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => { /* the box shows it */ });
  });
}

// then(read()), unless read throws: what it threw (a field that does not parse) is shown instead.
function withRead(read, then) {
  let value;
  try {
    value = read();
  } catch (error) {
    showError("InvalidInput", error.message);
    return;
  }
  then(value);
}

// ---------------------------------------------------------------- showing values

function showText(container, text) {
  container.appendChild(element("p", "text", text));
}

function showDocuments(container, documents) {
  const list = element("ol", "documents");
  for (const document of documents) {
    const item = element("li", "document");
    item.appendChild(element("div", "content", document.page_content));
    const metadata = isObject(document.metadata) ? Object.entries(document.metadata) : [];
    if (document.id) metadata.unshift(["id", document.id]);
    if (metadata.length) {
      const tags = element("div", "metadata");
      for (const [key, value] of metadata) {
        const tag = element("span");
        tag.append(element("b", "", key), " " + (typeof value === "string" ? value : JSON.stringify(value)));
        tags.appendChild(tag);
      }
      item.appendChild(tags);
    }
    list.appendChild(item);
  }
  container.appendChild(list);
}

function treeNode(key, value, depth) {
  const keyPart = key === null ? null : element("span", "key", key + ": ");
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
    const details = element("details");
    details.open = depth < 2 && entries.length <= 20;
    const summary = element("summary");
    if (keyPart) summary.appendChild(keyPart);
    const label = Array.isArray(value) ? "[" + entries.length + "]" : isMessage(value) ? value.type + " message" : "{" + entries.length + "}";
    summary.appendChild(element("span", "count", label));
    details.appendChild(summary);
    for (const [name, item] of entries) details.appendChild(treeNode(name, item, depth + 1));
    return details;
  }
  const line = element("div", "entry");
  if (keyPart) line.appendChild(keyPart);
  const kind = typeof value === "string" ? "string" : typeof value === "number" ? "number" : "literal";
  line.appendChild(element("span", kind, typeof value === "string" ? JSON.stringify(value) : String(value)));
  return line;
}

function showTree(container, value) {
  const tree = element("div", "value-tree");
  tree.appendChild(treeNode(null, value, 0));
  container.appendChild(tree);
}

function agentAnswer(value) {
  if (typeof value === "string") return value;
  if (isMessage(value)) return contentText(value.content);
  if (!isObject(value)) return null;
  if (typeof value.output === "string") return value.output;
  if (isMessage(value.output)) return contentText(value.output.content);
  const messages = value.messages || value.conversation || value.history;
  if (Array.isArray(messages)) {
    const last = messages.filter(isMessage).pop();
    if (last && ROLES[last.type] === "ai") return contentText(last.content);
  }
  return null;
}

function looksLikeAgent(value) {
  if (!isObject(value)) return false;
  return value.kind === "agent_result" || ("output" in value && ("steps" in value || "intermediate_steps" in value));
}

function showAgent(container, value, steps) {
  const answer = element("div", "answer");
  answer.appendChild(element("span", "label", "Answer"));
  answer.appendChild(element("p", "text", agentAnswer(value) ?? compact(value)));
  container.appendChild(answer);
  const section = element("div", "steps");
  section.appendChild(element("span", "label", steps.length ? "Steps" : "No tool was called"));
  const list = element("ol");
  for (const step of steps) {
    const item = element("li", "step" + (step.error ? " failed" : ""));
    const head = element("div", "head");
    head.append(element("span", "tool", step.name), element("span", "state", step.error ? "failed" : step.done ? "done" : "running"));
    const facts = element("dl");
    facts.append(element("dt", "", "arguments"), element("dd", "", compact(step.input)));
    if (step.error) facts.append(element("dt", "", "error"), element("dd", "", step.error));
    else if (step.done) facts.append(element("dt", "", "result"), element("dd", "", compact(step.output)));
    item.append(head, facts);
    list.appendChild(item);
  }
  section.appendChild(list);
  container.appendChild(section);
  if (isObject(value)) {
    const full = element("details", "steps");
    full.appendChild(element("summary", "muted", "The whole result"));
    showTree(full, value);
    container.appendChild(full);
  }
}

function showValue(container, value, steps) {
  container.textContent = "";
  if (steps.length || looksLikeAgent(value)) showAgent(container, value, steps);
  else if (typeof value === "string") showText(container, value);
  else if (isMessage(value)) {
    container.appendChild(element("div", "message-type", value.type + " message"));
    showText(container, contentText(value.content));
  } else if (Array.isArray(value) && value.length && value.every(isDocument)) showDocuments(container, value);
  else if (value === null || typeof value !== "object") showText(container, JSON.stringify(value));
  else showTree(container, value);
}

// ---------------------------------------------------------------- the chat view

const history = [];

function bubble(message) {
  const role = ROLES[message.type] || "other";
  const item = element("li", "bubble " + role);
  item.appendChild(element("span", "who", role === "other" ? message.role || message.type : role === "ai" ? "assistant" : role));
  const text = element("span", "says", contentText(message.content));
  item.appendChild(text);
  $("transcript").appendChild(item);
  item.scrollIntoView({ block: "nearest" });
  return { item, text };
}

let reply = null;

// ---------------------------------------------------------------- showing a run

const runs = new Map();
const tools = [];
let rootId = null;
let streamed = "";

function reset() {
  runs.clear();
  tools.length = 0;
  rootId = null;
  streamed = "";
  $("output").textContent = "";
  $("tree").textContent = "";
  $("error").hidden = true;
}

function showError(type, message, status) {
  $("error").hidden = false;
  $("error-type").textContent = type;
  $("error-status").textContent = status ? "(" + status + ")" : "";
  $("error-message").textContent = message;
}

function duration(run) {
  const ms = performance.now() - run.started;
  return ms < 1000 ? ms.toFixed(0) + " ms" : (ms / 1000).toFixed(2) + " s";
}

function startRun(event, kind) {
  const item = element("li", "run running");
  item.dataset.runId = event.run_id;
  const line = element("div", "line");
  const time = element("span", "time", "running");
  line.append(element("span", "name", event.name), element("span", "type " + kind, kind), time);
  const children = element("ul");
  item.append(line, children);
  const parentId = event.parent_ids.length ? event.parent_ids[event.parent_ids.length - 1] : null;
  const parent = parentId && runs.get(parentId);
  (parent ? parent.children : $("tree")).appendChild(item);
  runs.set(event.run_id, { item, time, children, started: performance.now() });
}

function endRun(event, failed) {
  const run = runs.get(event.run_id);
  if (!run) return;
  run.time.textContent = duration(run);
  run.item.classList.remove("running");
  run.item.classList.add(failed ? "failed" : "done");
  if (failed && event.data && event.data.error) {
    run.time.textContent += " · " + (event.data.error.type || "error");
  }
}

// A run the stream left unfinished (Stop pressed, the connection lost) is not "running" any more.
function settleRuns(why) {
  for (const run of runs.values()) {
    if (!run.item.classList.contains("running")) continue;
    run.item.classList.remove("running");
    run.item.classList.add("stopped");
    run.time.textContent = why;
  }
  for (const step of tools) if (!step.done && !step.error) step.error = why;
}

function errorText(error) {
  if (isObject(error)) return (error.type || "Error") + (error.message ? ": " + error.message : "");
  return String(error);
}

function onEvent(raw) {
  const match = /^on_(.+)_(start|stream|end|error)$/.exec(raw.event || "");
  if (!match) return;
  const event = Object.assign({}, raw, { data: revive(raw.data || {}), parent_ids: raw.parent_ids || [] });
  const [, kind, phase] = match;
  if (phase === "start") {
    if (rootId === null) rootId = event.run_id;
    startRun(event, kind);
    if (kind === "tool") tools.push({ runId: event.run_id, name: event.name, input: event.data.input, done: false });
  } else if (phase === "stream" && event.run_id === rootId) {
    const text = chunkText(event.data.chunk);
    if (text === null) return;
    streamed += text;
    if (reply) reply.text.textContent = streamed;
    else $("output").textContent = streamed;
  } else if (phase === "end") {
    endRun(event, false);
    const step = kind === "tool" && tools.find((one) => one.runId === event.run_id);
    if (step) Object.assign(step, { done: true, output: event.data.output });
    if (event.run_id === rootId) finish(event.data.output);
  } else if (phase === "error") {
    endRun(event, true);
    const step = kind === "tool" && tools.find((one) => one.runId === event.run_id);
    if (step) step.error = errorText(event.data.error);
  }
}

function finish(output) {
  if (reply) {
    const text = agentAnswer(output) ?? compact(output);
    reply.text.textContent = text;
    reply.item.classList.remove("streaming");
    history.push({ type: "ai", content: text });
    reply = null;
  } else {
    showValue($("output"), output, tools);
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

function statusOf() {
  return document.body.dataset.mode === "chat" ? $("chat-status") : $("status");
}

function busy(running) {
  for (const id of ["run", "send"]) $(id).disabled = running;
  for (const id of ["stop", "chat-stop"]) $(id).disabled = !running;
  document.body.dataset.state = running ? "running" : "idle";
}

async function start(input) {
  controller = new AbortController();
  busy(true);
  statusOf().textContent = "running…";
  let ended = false;
  let failed = false;
  try {
    const body = { input };
    const config = readConfig();
    if (config) body.config = config;
    const response = await request("stream_events", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) {
      let info = {};
      try { info = await response.json(); } catch (ignored) { /* not JSON */ }
      const detail = (info.detail || []).map((d) => (d.loc || []).join(".") + ": " + d.msg).join("\n");
      showError(info.type || "HTTP " + response.status, [info.message, detail].filter(Boolean).join("\n"), response.status);
      failed = true;
      statusOf().textContent = "failed";
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
    if (!ended && !failed) settleRuns("cut off");
    statusOf().textContent = failed ? "failed" : ended ? "done" : "the stream broke off";
  } catch (error) {
    if (error.name === "AbortError") {
      settleRuns("stopped");
      statusOf().textContent = "stopped";
      if (reply) reply.item.classList.add("stopped");
    } else {
      showError(error.name || "Error", error.message);
      failed = true;
    }
  } finally {
    if (reply) {
      reply.item.classList.remove("streaming");
      if (failed && !streamed) reply.item.remove();
      else if (streamed) history.push({ type: "ai", content: streamed });
      reply = null;
    }
    if (!$("output").childElementCount && tools.length && !failed) showValue($("output"), null, tools);
    busy(false);
    controller = null;
  }
}

function runForm(event) {
  event.preventDefault();
  reset();
  withRead(readInput, start);
}

function send(event) {
  event.preventDefault();
  const text = $("chat-input").value;
  if (!text.trim() || controller) return;
  reset();
  $("chat-input").value = "";
  const message = { type: "human", content: text };
  const input = chatInput(chat, text);
  history.push(message);
  bubble(message);
  reply = bubble({ type: "ai", content: "" });
  reply.item.classList.add("streaming");
  start(input);
}

// ---------------------------------------------------------------- set-up

let chat = null; // how a chat turn becomes the input (chatShape), when the chain takes messages

function setMode(mode) {
  document.body.dataset.mode = mode;
  $(mode === "chat" ? "chat-error-slot" : "output-panel").appendChild($("error"));
  const toggle = $("mode-switch");
  toggle.hidden = chat === null;
  toggle.textContent = mode === "chat" ? "Form view" : "Chat view";
}

async function loadSchemas() {
  const response = await request("input_schema");
  if (!response.ok) {
    $("fields").textContent = "";
    const why = response.status === 401 ? "Unauthorized" : "HTTP " + response.status;
    showError(why, "could not read the input schema", response.status);
    return;
  }
  $("error").hidden = true;
  const schema = await response.json();
  buildForm(schema);
  chat = chatShape(schema);
  setMode(chat !== null ? "chat" : "form");
  const config = await request("config_schema");
  if (config.ok) buildConfig(await config.json());
  document.body.dataset.state = "idle";
}

function init() {
  $("route").textContent = base;
  document.title = "Playground " + base;
  $("token").value = sessionStorage.getItem(TOKEN_KEY) || "";
  $("token").addEventListener("change", () => {
    const token = $("token").value.trim();
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
    loadSchemas();
  });
  $("form").addEventListener("submit", runForm);
  $("share").addEventListener("click", share);
  $("chat-form").addEventListener("submit", send);
  $("chat-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) send(event);
  });
  $("clear").addEventListener("click", () => {
    history.length = 0;
    $("transcript").textContent = "";
    reset();
  });
  for (const id of ["stop", "chat-stop"]) $(id).addEventListener("click", () => controller && controller.abort());
  $("mode-switch").addEventListener("click", (event) => {
    event.preventDefault();
    setMode(document.body.dataset.mode === "chat" ? "form" : "chat");
  });
  loadSchemas();
}

init();
