// What JavaScript says a pattern means. For each [pattern, string] of {"cases": [...]} on stdin:
// `test`, what V8's `new RegExp(pattern, "u").test(string)` answers, and `spec`, what ECMA-262
// says it answers: a match tried at every code point boundary, as RegExpBuiltinExec advances
// (AdvanceStringIndex), each try a sticky match there. They differ where V8 lets an assertion
// such as \B match inside a surrogate pair ("a😀a" matches /\B/u at index 2), which the spec
// never tries. null for both when the pattern does not compile (a SyntaxError).
import { readFileSync } from "node:fs";

const { cases } = JSON.parse(readFileSync(0, "utf8"));
const compiled = new Map();

function compile(pattern) {
  if (!compiled.has(pattern)) {
    let pair = null;
    try {
      pair = [new RegExp(pattern, "u"), new RegExp(pattern, "uy")];
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
    compiled.set(pattern, pair);
  }
  return compiled.get(pattern);
}

function specTest(sticky, string) {
  for (let index = 0; index <= string.length; ) {
    sticky.lastIndex = index;
    if (sticky.test(string)) return true;
    index += (string.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
  }
  return false;
}

const test = [];
const spec = [];
for (const [pattern, string] of cases) {
  const pair = compile(pattern);
  test.push(pair === null ? null : pair[0].test(string));
  spec.push(pair === null ? null : specTest(pair[1], string));
}
process.stdout.write(JSON.stringify({ test, spec }));
