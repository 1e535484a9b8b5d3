// Parses every option of realistic quiz sets with mermaid.js (under jsdom) and prints the
// ones it rejects: the check that a set's diagrams are Mermaid as mermaid.js reads it.
// Run through ./check-syntax, which installs mermaid and jsdom into .tools/mermaid-js.
import { JSDOM } from 'jsdom';
import fs from 'fs';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
try { globalThis.navigator = dom.window.navigator; } catch { /* read-only in newer Node */ }
globalThis.DOMParser = dom.window.DOMParser;
globalThis.Element = dom.window.Element;
const mermaid = (await import('mermaid')).default;
mermaid.initialize({ startOnLoad: false });

let rejected = 0;
for (const file of process.argv.slice(2)) {
  const quiz = JSON.parse(fs.readFileSync(file, 'utf8'));
  let bad = 0, n = 0;
  for (const q of quiz.questions) {
    for (const [key, source] of Object.entries(q.options)) {
      n++;
      try {
        await mermaid.parse(source);
      } catch (e) {
        bad++;
        console.log(`${q.id}:${key} ${String(e.message || e).split('\n').slice(0, 3).join(' | ')}`);
      }
    }
  }
  console.log(`${file}: ${n - bad}/${n} parse`);
  rejected += bad;
}
process.exit(rejected === 0 ? 0 : 1);
