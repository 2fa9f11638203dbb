// What JavaScript says a pattern means: for each [pattern, string] case of {"cases": [...]} on
// stdin, `new RegExp(pattern, "u").test(string)`, or null when the pattern does not compile.
// Patterns that do not compile are compiled once; the answer is one JSON array on stdout.
import { readFileSync } from "node:fs";

const { cases } = JSON.parse(readFileSync(0, "utf8"));
const compiled = new Map();
const answers = cases.map(([pattern, string]) => {
  if (!compiled.has(pattern)) {
    let regex = null;
    try {
      regex = new RegExp(pattern, "u");
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
    compiled.set(pattern, regex);
  }
  const regex = compiled.get(pattern);
  return regex === null ? null : regex.test(string);
});
process.stdout.write(JSON.stringify(answers));
