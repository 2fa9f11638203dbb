// The official TypeScript SDK client, driven by a test: spawn the server given on stdin, list
// its tools (so the client caches each outputSchema and checks every structuredContent with
// ajv + ajv-formats, as it does for any user), make the calls, print what came back as JSON.
//
// stdin: {"command": str, "args": [str], "env": {..}, "elicit": "accept"|"decline"|null,
//         "calls": [{"name": str, "arguments": {..}}]}
// stdout: {"tools": [names], "results": [{"result": CallToolResult} | {"error": {code, message}}]}
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const capabilities = job.elicit ? { elicitation: { form: {} } } : {};
const client = new Client({ name: "toolc-tests", version: "1.0.0" }, { capabilities });
if (job.elicit) {
  client.setRequestHandler(ElicitRequestSchema, async () =>
    job.elicit === "accept"
      ? { action: "accept", content: { confirm: true } }
      : { action: "decline" },
  );
}
const transport = new StdioClientTransport({
  command: job.command,
  args: job.args,
  env: { ...process.env, ...(job.env || {}) },
  stderr: "inherit",
});
await client.connect(transport);
const listed = await client.listTools();
const results = [];
for (const call of job.calls) {
  try {
    results.push({ result: await client.callTool({ name: call.name, arguments: call.arguments }) });
  } catch (error) {
    results.push({ error: { code: error.code ?? null, message: String(error.message ?? error) } });
  }
}
await client.close();
process.stdout.write(JSON.stringify({ tools: listed.tools.map((t) => t.name), results }));
