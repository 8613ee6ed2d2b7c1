// LangChain.js's RemoteRunnable (@langchain/core 0.3) at a LangServe config-hash URL,
// argv[2] + "/c/" + argv[3] (the hash made by LangServe's LZString): invoke, batch and
// stream; prints one JSON object of what came back. Run by node beside node_modules.
import { RemoteRunnable } from "@langchain/core/runnables/remote";

const remote = new RemoteRunnable({ url: `${process.argv[2]}/c/${process.argv[3]}` });
const out = {};
out.invoke = await remote.invoke("x");
out.batch = await remote.batch(["x", "y"]);
out.stream = [];
for await (const chunk of await remote.stream("x")) out.stream.push(chunk);
console.log(JSON.stringify(out));
