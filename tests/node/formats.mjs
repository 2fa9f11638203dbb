// ajv's verdict on `format`, exactly as the TypeScript SDK client reaches it: the SDK's
// own AjvJsonSchemaValidator (ajv 8 + ajv-formats, full mode, strict: false), one
// compiled schema {format: name} per name. stdin: {"cases": [[format, value], ...]};
// stdout: a JSON list of booleans, one per case. `{"describe": true}` instead prints
// what ajv-formats defines: {formatNames, types: {name: "string"|"number"|null},
// regexes: {name: [source, flags]}}; `{"identifierRanges": true}` prints the code
// point ranges of ID_Start and ID_Continue in this engine's Unicode tables.
import { readFileSync } from "node:fs";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { fullFormats, formatNames } from "ajv-formats/dist/formats.js";

const request = JSON.parse(readFileSync(0, "utf8"));

function describe() {
  const types = {};
  const regexes = {};
  for (const name of formatNames) {
    const def = fullFormats[name];
    if (def === true) types[name] = null;
    else if (typeof def === "object" && !(def instanceof RegExp)) {
      types[name] = def.type || "string";
      if (def.validate instanceof RegExp) regexes[name] = [def.validate.source, def.validate.flags];
    } else {
      types[name] = "string";
      if (def instanceof RegExp) regexes[name] = [def.source, def.flags];
    }
  }
  return { formatNames, types, regexes };
}

function ranges(regex) {
  const out = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const inside = cp < 0x110000 && regex.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    if (!inside && start >= 0) {
      out.push([start, cp - 1]);
      start = -1;
    }
  }
  return out;
}

let answer;
if (request.describe) answer = describe();
else if (request.identifierRanges) {
  answer = { start: ranges(/^\p{ID_Start}$/u), continue: ranges(/^\p{ID_Continue}$/u) };
} else {
  const provider = new AjvJsonSchemaValidator();
  const validators = new Map();
  const console_warn = console.warn;
  console.warn = () => {}; // ajv warns of unknown formats (strict: false ignores them)
  answer = request.cases.map(([format, value]) => {
    if (!validators.has(format)) validators.set(format, provider.getValidator({ format }));
    return validators.get(format)(value).valid;
  });
  console.warn = console_warn;
}
process.stdout.write(JSON.stringify(answer));
