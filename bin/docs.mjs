#!/usr/bin/env node
// The `docs` command. The CLI is TypeScript; it is compiled by esbuild into node_modules/.cache/docs/cli
// on first use and whenever a source file is newer than the compiled copy (about 100 ms).
import { enableCodeCache, loadCli } from './ensure-built.mjs';

// React and friends pick their production builds from this; set before anything imports them.
process.env.NODE_ENV ??= 'production';

enableCodeCache();
const cli = await loadCli();
const args = process.argv.slice(2);
process.exitCode = await cli.main(args);
// The compiled code as a build left it, for the next command (cli/util/code-cache.ts `save`: when there was none, or it grew).
if (process.exitCode === 0 && (args.includes('build') || args.includes('serve'))) cli.save();
// Everything docs waits for is done. A timer, a server or a connection that site.config.ts left open
// must not keep a finished build (or a stopped server) alive, a CI job until its timeout: the process
// ends anyway, once what is written has had a moment to go out. (The timer keeps nothing alive itself.)
setTimeout(() => process.exit(), 200).unref();
