import { readFileSync } from 'node:fs';
const prof = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas; let total = 0;
prof.samples.forEach((id, i) => { const d = dt[i] ?? 0; total += d; self.set(id, (self.get(id) ?? 0) + d); });
// aggregate by url (package)
const byPkg = new Map();
for (const [id, t] of self) { const n = nodes.get(id); const url = n.callFrame.url || n.callFrame.functionName || '(native)'; const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url); const key = m ? m[1] : url.includes('.cache/docs/cli') ? 'docs-cli' : (n.callFrame.functionName || '(program)'); byPkg.set(key, (byPkg.get(key) ?? 0) + t); }
console.log('total ms', (total / 1000).toFixed(0));
console.log([...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, t]) => `${(t / 1000).toFixed(0).padStart(6)} ${k}`).join('\n'));
const byFn = new Map();
for (const [id, t] of self) { const n = nodes.get(id); if (!n.callFrame.url.includes('.cache/docs/cli')) continue; const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; byFn.set(key, (byFn.get(key) ?? 0) + t); }
console.log('--- docs-cli functions');
console.log([...byFn].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, t]) => `${(t / 1000).toFixed(0).padStart(6)} ${k}`).join('\n'));
