/** The `docs` command line: parses arguments, runs a command, prints diagnostics, returns the exit code. */
import { Command, CommanderError } from 'commander';
import { statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildSite } from './build/start';
import { ioReason } from './build/write';
import { mayHoldOptimizer, releaseOptimizer } from './build/optimizer';
import { configOfError, configProblemAtExit, exitProcess } from './build/config-file';
import { DocsError, EXIT, formatDiagnostic, warningLines, type Diagnostic } from './util/errors';
import { isCommitFailure } from './util/commit-failure';
import { isWebAddress } from './util/web-address';
import { createProgressLine, type ProgressLine } from './progress-line';

/** When the last `main` began, for the seconds of a failed build's JSON report. */
let commandStarted = 0;

/** Runs `docs` with `argv` (without node and script) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  commandStarted = performance.now();
  let exitCode: number = EXIT.ok;
  /** `docs serve` is starting: an error now means the server never ran (nothing was built over). */
  let starting = false;
  const program = new Command()
    .name('docs')
    .description('Build and serve a documentation site')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  /**
   * Set by `build --json`: every outcome, failures included, is printed as one JSON object — an option
   * commander refuses too, before it reaches the action.
   */
  let json = argv[0] === 'build' && argv.includes('--json');
  /** The live line on a terminal, erased before anything else is printed. */
  let progress: ProgressLine = createProgressLine(process.stderr, false);
  program
    .command('build')
    .description('build the site into dist/ (or --out DIR)')
    .option('--root <dir>', 'site root, the folder of site.config.ts', '.')
    .option('--out <dir>', 'output folder (default: <root>/dist)')
    .option('--no-cache', 'ignore and do not write the content-hash cache')
    .option('--archive <file>', 'also write the output as a deterministic .tar.gz, with SHA256SUMS beside it')
    .option('--json', 'print a machine-readable report on stdout instead of text')
    .option('--force', 'replace a non-empty output folder that docs did not write (never the site, its sources, your home or /)')
    .option('--gate', 'build for the gated host (docs serve --dist OUT): logins go to the site itself (default: gate in site.config.ts)')
    .option('--no-gate', 'build for a plain static host, whatever site.config.ts says')
    .action(async (options: { root: string; out?: string; cache: boolean; archive?: string; json?: boolean; force?: boolean; gate?: boolean }) => {
      json = options.json === true;
      checkOptions('docs build', argv, options);
      if (options.archive) {
        // A folder that cannot take the archive is found before the output is replaced.
        const { checkArchiveFolder } = await import('./build/archive');
        checkArchiveFolder(resolve(options.archive));
      }
      progress = createProgressLine(process.stderr, !json);
      // With --json, stdout is the report's alone: what the config (or anything it loads) prints goes to stderr.
      const restoreStdout = json ? divertStdout() : () => undefined;
      // A small site builds faster without V8's optimizing compiler (build/optimizer.ts).
      mayHoldOptimizer();
      const report = await buildSite({
        root: resolve(options.root),
        outDir: options.out ? resolve(options.out) : undefined,
        env: process.env,
        cache: options.cache,
        force: options.force === true,
        onProgress: progress.update,
        gate: options.gate,
        workerUrl: process.env.DOCS_THREADS === '0' ? undefined : new URL('./worker/worker.mjs', import.meta.url),
        // The archive is written from a full build's state, which a build that stops at once does not have.
        unchanged: !options.archive,
        archive: options.archive ? resolve(options.archive) : undefined,
      }).finally(() => {
        restoreStdout();
        // A caller that runs more in this process (the bench, the tests) gets the optimizer back.
        releaseOptimizer();
      });
      let archive: { file: string; sha256: string } | undefined;
      if (options.archive) {
        // Its place was checked before the build (buildSite).
        const { writeArchiveOrSay } = await import('./build/archive');
        const file = resolve(options.archive);
        archive = { file, sha256: await writeArchiveOrSay(report.outDir, file, (done, total) => progress.update({ stage: 'archive', done, total })) };
      }
      progress.clear();
      if (json) {
        const { outDir, pages, cachedPages, warnings, seconds, searchSeconds, cacheProblem, leftovers } = report;
        const unchanged = report.unchanged === true;
        process.stdout.write(`${JSON.stringify({ ok: true, exitCode: EXIT.ok, outDir, pages, cachedPages, seconds, searchSeconds, unchanged, warnings, errors: [], archive, ...(cacheProblem ? { cacheProblem } : {}), ...(leftovers ? { leftovers } : {}) })}\n`);
        return;
      }
      for (const line of warningLines(report.warnings)) process.stderr.write(`${line}\n`);
      if (report.cacheProblem) {
        const { dir, reason } = report.cacheProblem;
        process.stderr.write(`note: the build cache in ${dir} could not be written (${reason}). This build is complete; the next one will not be the faster for it. Free some space there, or remove the folder.\n`);
      }
      for (const { path, reason } of report.leftovers ?? []) {
        process.stderr.write(`note: ${path}, an earlier output or staging folder of this output, could not be removed (${reason}). This build is complete; remove that folder yourself (another user's files: sudo rm -rf '${path}').\n`);
      }
      const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
      process.stdout.write(`Built ${plural(report.pages, 'page')} in ${report.seconds.toFixed(2)} s (${report.cachedPages} from cache), ${plural(report.warnings.length, 'warning')} → ${report.outDir}\n`);
      if (archive) process.stdout.write(`Archive ${archive.file} (sha256 ${archive.sha256}), SHA256SUMS beside it\n`);
    });

  program
    .command('serve')
    .description('build, serve and rebuild on every change, with live reload and development logins')
    .option('--root <dir>', 'site root, the folder of site.config.ts', '.')
    .option('--port <port>', 'port to listen on (0: any free port)', '3000')
    .option('--host <host>', 'address to bind; other machines can reach the server only with --host 0.0.0.0', '127.0.0.1')
    .option('--backend <url>', 'send logins to this backend instead of the built-in development accounts')
    .option('--dist <dir>', 'serve a finished build as it is (no build, no watching)')
    .option('--open', 'open the site in the default browser')
    .option('--gate', 'only readers with a session see the documentation (default: on when site.config.ts says gate: true, or the --dist build was made for the gate; needs DOCS_SESSION_SECRET with --dist)')
    .option('--no-gate', 'serve the documentation to anyone, whatever site.config.ts or the build says')
    .option('--session-days <days>', 'lifetime of a gate session in days', '30')
    .option('--trust-proxy', "behind a proxy that adds the reader's address to X-Forwarded-For (nginx: $proxy_add_x_forwarded_for): the gate counts failed logins by that address, not the proxy's")
    .action(async (options: { root: string; port: string; host: string; backend?: string; dist?: string; open?: boolean; gate?: boolean; sessionDays: string; trustProxy?: boolean }) => {
      starting = true;
      checkOptions('docs serve', argv, options);
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new DocsError('usage', [{ file: 'docs serve', message: `--port must be a number from 0 to 65535, got "${options.port}"`, fix: 'e.g. --port 3000' }]);
      const sessionDays = Number(options.sessionDays);
      // At least a minute: the cookie's Max-Age is in whole seconds, and 0 would end every session at once.
      if (!(sessionDays * 86_400 >= 60 && sessionDays <= 400)) throw new DocsError('usage', [{ file: 'docs serve', message: `--session-days must be a number of days from one minute (0.0007) to 400, got "${options.sessionDays}"`, fix: 'e.g. --session-days 30' }]);
      // The backend: --backend, else DOCS_BACKEND_URL (DESIGN §1: overridable at build and serve time;
      // `/`, this server, is the development accounts, as without either).
      const fromEnv = process.env.DOCS_BACKEND_URL;
      const named = options.backend !== undefined ? '--backend' : fromEnv && fromEnv !== '/' ? 'DOCS_BACKEND_URL' : undefined;
      const backend = named === '--backend' ? options.backend : named ? fromEnv : undefined;
      // Logins go there: a typo (no scheme) would fail every login, an ftp:// or file:// address too.
      if (backend !== undefined && !isWebAddress(backend)) {
        const fix = named === '--backend' ? `pass its http(s) address, e.g. --backend ${backendExample(backend)}` : `set it to its http(s) address, e.g. DOCS_BACKEND_URL=${backendExample(backend)}, or unset it for the development accounts`;
        throw new DocsError('usage', [{ file: 'docs serve', message: `${named} "${backend}" is not the address of a backend: every login would go nowhere`, fix }]);
      }
      // Ctrl-C (or SIGTERM) is heard from the start: while the server starts (the first build runs and
      // the watcher reads the tree, seconds on a large site) it stops the process at once, which a
      // build survives (see the killed-build test); once it runs, watchers, streams and the server
      // close before exit.
      let stopServer = (): void => {
        process.stdout.write('Stopping docs serve…\n');
        exitProcess(0);
      };
      process.once('SIGINT', () => stopServer());
      process.once('SIGTERM', () => stopServer());
      const { startServer } = await import('./serve/index');
      const server = await startServer({
        root: resolve(options.root),
        port,
        host: options.host,
        backend,
        dist: options.dist,
        open: options.open,
        gate: options.gate,
        sessionDays,
        trustProxy: options.trustProxy === true,
        env: process.env,
        workerUrl: process.env.DOCS_THREADS === '0' ? undefined : new URL('./worker/worker.mjs', import.meta.url),
        log: (line) => process.stdout.write(`${line}\n`),
      });
      starting = false;
      // From now on a failure the config causes later (a timer of its own) is the server's to show, not the end of it.
      configStray = server.report;
      await new Promise<void>((stop) => {
        stopServer = (): void => {
          process.stdout.write('Stopping docs serve…\n');
          void server.close().then(stop);
        };
      });
    });

  const report = (error: unknown): number => {
    progress.clear();
    return json ? reportErrorAsJson(error) : reportError(error, starting);
  };
  reportStray = report;
  guardProcess();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    exitCode = report(error);
  }
  return exitCode;
}

/** The address a `--backend` without a scheme most likely meant: `http://` on this machine, `https://` elsewhere. */
function backendExample(value: string): string {
  if (!/^[\w.-]+(:\d+)?(\/\S*)?$/.test(value)) return 'https://api.quad.example';
  return `${/^(localhost|127\.[\d.]+)(:|\/|$)/i.test(value) ? 'http' : 'https'}://${value}`;
}

/**
 * Options that contradict each other or name nothing, refused before anything runs: commander takes
 * the last of `--gate` and `--no-gate`, reads `--out=` as no folder (the build went to dist/), and a
 * `--root` that is a file was looked in for a site.config.ts of its own.
 */
function checkOptions(command: 'docs build' | 'docs serve', argv: string[], options: { root: string; out?: string; archive?: string; dist?: string }): void {
  const problems: Diagnostic[] = [];
  if (argv.includes('--gate') && argv.includes('--no-gate')) problems.push({ file: command, message: '--gate and --no-gate say opposite things', fix: 'pass one of them, or neither (site.config.ts then decides)' });
  for (const [flag, value] of [['--root', options.root], ['--out', options.out], ['--archive', options.archive], ['--dist', options.dist]] as const) {
    if (value !== undefined && value.trim() === '') problems.push({ file: command, message: `${flag} is empty`, fix: `name a ${flag === '--archive' ? 'file, e.g. --archive portal.tar.gz' : `folder, e.g. ${flag} ${flag === '--root' ? '.' : 'dist'}`}` });
  }
  const root = resolve(options.root);
  let found: Stats | undefined;
  try {
    found = options.root.trim() === '' ? undefined : statSync(root, { throwIfNoEntry: false });
  } catch (error) {
    // A folder on the way this user may not enter (EACCES), a file in the way (ENOTDIR), a loop (ELOOP).
    const reason = ioReason((error as NodeJS.ErrnoException).code) ?? (error as Error).message;
    problems.push({ file: command, message: `--root ${options.root} cannot be reached: ${reason}`, fix: 'name the site folder by a path this user may read, or build as a user who may read it' });
  }
  if (found?.isFile()) {
    problems.push({ file: command, message: `--root ${options.root} is a file; --root names the site's folder, the one holding site.config.ts`, fix: `--root ${dirname(root)}` });
  }
  if (problems.length > 0) throw new DocsError('usage', problems);
}

/** How the last `main` reports an error (as text or JSON), for what no step caught (`guardProcess`). */
let reportStray: (error: unknown) => number = (error) => reportError(error);
let guarded = false;
/** A running `docs serve`'s way of showing a failure of the config's own making (`DevServer.report`). */
let configStray: ((error: unknown) => void) | undefined;

/**
 * Reports what no step of a command caught, then ends the process: an error thrown from a config's
 * timer, or a promise of the config that fails unawaited, after it loaded (the config's error, exit 2:
 * Node would print a bare stack and exit 1); any other uncaught exception (an internal error, exit
 * 70); and a config whose top-level `await` never settles (Node would end the process with exit 13 and
 * not a word). Installed once per process, and left in place when a command returns: a config's timer
 * may fire after the build is done.
 */
function guardProcess(): void {
  if (guarded) return;
  guarded = true;
  process.on('uncaughtException', (error) => {
    const problem = configOfError(error);
    if (problem && configStray) return configStray(new DocsError('config', [problem]));
    exitProcess(reportStray(problem ? new DocsError('config', [problem]) : error));
  });
  // A rejection nothing awaited ends the process as an uncaught exception does, but one: LMDB rejects
  // a failed commit that nothing awaits (a full disk), and the build, which saw the failure through
  // the store, is whole all the same.
  process.on('unhandledRejection', (reason) => {
    if (isCommitFailure(reason)) return;
    const problem = configOfError(reason);
    if (problem && configStray) return configStray(new DocsError('config', [problem]));
    exitProcess(reportStray(problem ? new DocsError('config', [problem]) : reason));
  });
  // A reader of the output that went away (`docs build | head`, a closed terminal): what is left to say
  // has no one to hear it, and the command's own exit code stands (it was exit 70 and a stack trace).
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    });
  }
  process.on('exit', () => {
    const problem = configProblemAtExit();
    if (problem) exitProcess(reportStray(new DocsError('config', [problem])));
  });
}

/** Sends what is written to stdout to stderr until the returned function is called. */
function divertStdout(): () => void {
  const write = process.stdout.write;
  process.stdout.write = ((...args: Parameters<typeof process.stdout.write>) => (process.stderr.write as (...rest: typeof args) => boolean)(...args)) as typeof process.stdout.write;
  return () => {
    process.stdout.write = write;
  };
}

/** A failure as the JSON report of `build --json`. */
function reportErrorAsJson(error: unknown): number {
  // `--help` is no failure.
  if (error instanceof CommanderError && error.exitCode === 0) return EXIT.ok;
  const exitCode = error instanceof DocsError ? EXIT[error.kind] : error instanceof CommanderError ? EXIT.usage : EXIT.internal;
  const errors = error instanceof DocsError ? error.diagnostics : [{ file: '', message: error instanceof Error ? error.message : String(error) }];
  // The same fields as a success's report: what a failed build does not know is null.
  const seconds = (performance.now() - commandStarted) / 1000;
  process.stdout.write(`${JSON.stringify({ ok: false, exitCode, outDir: null, pages: null, cachedPages: null, seconds, warnings: error instanceof DocsError ? error.warnings : [], errors, archive: null })}\n`);
  return exitCode;
}

function reportError(error: unknown, serveStarting = false): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (error instanceof DocsError) {
    for (const line of warningLines(error.warnings)) process.stderr.write(`${line}\n`);
    for (const diagnostic of error.diagnostics) process.stderr.write(`error ${formatDiagnostic(diagnostic)}\n`);
    const count = error.diagnostics.length;
    const errors = `${count} error${count === 1 ? '' : 's'}`;
    // `docs serve` that did not start (a port in use, a short DOCS_SESSION_SECRET, a --dist that is no
    // gated build) built nothing over anything.
    const serving = serveStarting || (error.kind === 'usage' && error.diagnostics.every((diagnostic) => diagnostic.file === 'docs serve'));
    process.stderr.write(serving ? `docs serve did not start: ${errors}.\n` : error.afterOutput ? `Failed after the build: ${errors}; the output is complete.\n` : error.partial ? `Build failed: ${errors}; the output was partly updated: fix the cause and build again, and the next build completes it.\n` : `Build failed: ${errors}; the previous output was left untouched.\n`);
    return EXIT[error.kind];
  }
  process.stderr.write(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.stderr.write('This is a bug in docs, not in your content; please report it with the output above.\n');
  return EXIT.internal;
}
