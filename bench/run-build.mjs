// Runs one `docs build` in this process and prints {exitCode, seconds, maxRssBytes} as JSON on the last line.
import { enableCodeCache, loadCli } from '../bin/ensure-built.mjs';

process.env.NODE_ENV ??= 'production';
const [root, out] = process.argv.slice(2);
enableCodeCache();
// As bin/docs.mjs runs it: the compiled CLI with its code cache.
const cli = await loadCli();
const started = performance.now();
const exitCode = await cli.main(['build', '--root', root, '--out', out]);
const seconds = (performance.now() - started) / 1000;
if (exitCode === 0) cli.save();
// maxRSS covers the worker threads too: they live in this process.
const usage = process.resourceUsage();
const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
process.stdout.write(`${JSON.stringify({ exitCode, seconds, cpuSeconds, maxRssBytes: usage.maxRSS * 1024 })}\n`);
process.exitCode = exitCode;
