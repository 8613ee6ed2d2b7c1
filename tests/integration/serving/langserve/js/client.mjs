// LangChain.js's RemoteRunnable (@langchain/core 0.3) calling the chains served at argv[2]
// (argv[3]: by route, a JSON object of `input` and `batch`, its two inputs) with invoke,
// batch, stream, streamLog and streamEvents v2; prints one JSON object: per route and
// method, what came back described by `describe` (the class of every object the client
// revived and its fields, ids and times blanked), and whatever was written to the console.
// Run by node from the folder npm installed @langchain/core into (see conftest.py).
import { RemoteRunnable } from "@langchain/core/runnables/remote";

const BLANKED = new Set(["id", "run_id", "parent_ids", "start_time", "end_time", "parent_run_id", "tool_call_id"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function describe(value) {
  if (Array.isArray(value)) return value.map(describe);
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return UUID.test(value) ? "<uuid>" : value;
  if (typeof value !== "object") return value;
  const out = {};
  const name = value.constructor?.name;
  if (name && name !== "Object") out.class = name;
  for (const [key, item] of Object.entries(value)) {
    if (key.startsWith("lc_") || item === undefined) continue;  // LangChain.js's own bookkeeping
    out[key] = BLANKED.has(key) && item ? "<blank>" : describe(item);
  }
  return out;
}

async function collect(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function call(remote, method, input, batch) {
  if (method === "invoke") return describe(await remote.invoke(input));
  if (method === "batch") return describe(await remote.batch(batch));
  if (method === "stream") return describe(await collect(await remote.stream(input)));
  if (method === "streamLog") {
    let state;
    for await (const patch of remote.streamLog(input)) state = state === undefined ? patch : state.concat(patch);
    const log = state.state;
    return {
      streamed_output: describe(log.streamed_output),
      final_output: describe(log.final_output),
      logs: Object.entries(log.logs)
        .map(([name, entry]) => [name, entry.type, describe(entry.final_output)])
        .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    };
  }
  const events = await collect(remote.streamEvents(input, { version: "v2" }));
  return events.map((e) => ({ event: e.event, name: e.name, data: describe(e.data) }));
}

const printed = [];
for (const level of ["log", "info", "warn", "error", "debug"]) {
  console[level] = (...args) => printed.push(`${level}: ${args.map(String).join(" ")}`);
}
const [url, calls] = [process.argv[2], JSON.parse(process.argv[3])];
const out = {};
for (const [route, given] of Object.entries(calls)) {
  const remote = new RemoteRunnable({ url: `${url}/${route}` });
  for (const method of ["invoke", "batch", "stream", "streamLog", "streamEvents"]) {
    try {
      out[`${route}.${method}`] = await call(remote, method, given.input, given.batch);
    } catch (error) {
      out[`${route}.${method}`] = { error: `${error?.name}: ${error?.message}`.slice(0, 500) };
    }
  }
}
// A remote model piped into LangChain.js's own parser: works only when chunks are revived as messages.
try {
  const { StringOutputParser } = await import("@langchain/core/output_parsers");
  const piped = new RemoteRunnable({ url: `${url}/model` }).pipe(new StringOutputParser());
  out["model.pipe.invoke"] = await piped.invoke(calls.model.input);
  out["model.pipe.stream"] = await collect(await piped.stream(calls.model.input));
} catch (error) {
  out["model.pipe.invoke"] = { error: `${error?.name}: ${error?.message}`.slice(0, 500) };
}
out.printed = printed;
process.stdout.write(JSON.stringify(out) + "\n");
