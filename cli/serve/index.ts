/**
 * `docs serve`: builds once, serves the output like a good static host, watches the sources and
 * updates the open pages. Content edits take the fast path (`incremental.ts`); anything else — config,
 * specs, templates, the runtime, an added or removed page — rebuilds in full with the caches warm.
 * Every file operation and the watching of the serve command live here.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { buildSite } from '../build/index';
import { withGate, type ResolvedConfig } from '../build/config';
import { OUTPUT_MARKER, realPath } from '../build/write';
import { DocsError, errorLines, warningLines, type Diagnostic } from '../util/errors';
import { readFileText } from '../util/utf8';
import { checkDist, listenProblem } from './start-checks';
import { PACKAGE_ROOT } from '../util/package-root';
import { posixRelative } from '../util/fs';
import { DEV_ACCOUNTS, handleDevLogin } from './dev-login';
import { createGate, developmentSecret, sessionSecret } from './gate';
import { foreignHost, networkNotes } from './host-check';
import { distGate, gateLogin, sessionKey, sessionSeconds } from './serve-gate';
import { SiteSession, type ContentChange } from './incremental';
import { GitDates } from './git-dates';
import { EDITOR_TEMPORARY } from '../build/file-names';
import { RenderThread } from './render-thread';
import { CLIENT_PATH, CLIENT_SCRIPT, CLIENT_TAG, EVENTS_PATH, LiveChannel } from './live';
import { answerFailure, badTarget, requestUrl } from './request-url';
import { closeServer, createGuardedServer, openBrowser } from './http-server';
import { EndedSessions } from './sessions';
import { createStaticHandler } from './static-files';
import { watchSources } from './watch-roots';
import { createProgressLine } from '../progress-line';
import { mayHoldOptimizer, releaseOptimizer } from '../build/optimizer';

/**
 * What every page answers while no build has succeeded: the overlay shows the errors over it (the
 * live-reload stream carries them, behind the gate only to a signed-in writer), and the text says
 * where they are for a writer it cannot reach.
 */
const FIRST_BUILD_FAILED = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Build failed</title><body style="font:16px/1.5 system-ui,sans-serif;margin:2rem"><main id="docs-first-build"><h1>Build failed</h1><p>The site has not been built yet: the errors are in the terminal where <code>docs serve</code> runs. Fix the file and save, then reload this page if it does not reload by itself.</p></main>${CLIENT_TAG}</body></html>`;

/** How long after a save's reload `docs serve` rewrites the search index. */
const SEARCH_REFRESH_DELAY_MS = 300;


import type { DevServer, ServeOptions } from './options';
export type { DevServer, ServeOptions };

/** Starts `docs serve`; resolves once the server listens (the first build may still be running). */
export async function startServer(options: ServeOptions): Promise<DevServer> {
  const root = resolve(options.root);
  if (options.dist !== undefined) checkDist(options.dist);
  const live = new LiveChannel();
  let outDir = options.dist ? resolve(options.dist) : join(root, 'node_modules', '.cache', 'docs', 'serve');
  let firstBuild: Promise<unknown> = Promise.resolve();
  let built = options.dist !== undefined;
  const staticFile = createStaticHandler(() => outDir, { redirectHtml: true, etag: true, compress: true, cspHeader: true, inject: options.dist ? undefined : CLIENT_TAG });
  // The gate: in front of a finished build as it was built (`distGate`); in front of the development
  // build whenever the site is built for it (`--gate`, or `gate: true` in site.config.ts unless
  // `--no-gate`), set again after each full build from the config it read.
  let gate = options.dist ? distGate({ ...options, dist: options.dist }, staticFile) : undefined;
  // The pages call this server's /api/login unless a real backend was named. They name it as `/`,
  // the origin they are served from, not by its address: the port is part of no page, so a server
  // started again on another port (`--port 0`, a busy 3000) keeps every page the last one built.
  const env = { ...options.env, DOCS_BACKEND_URL: options.backend ?? '/' };
  const { loadConfig, siteConfigFile } = await import('../build/config-file');
  // A folder that is no site is refused before anything is made in it (as `docs build` refuses it).
  if (!options.dist) siteConfigFile(root);
  // Read before the server listens: whether the site is built for the gate decides the answer to the
  // first request. `--gate` needs it (the roles); otherwise a config that does not load is the first
  // build's error to report, and until a build succeeds there is no page to serve.
  const config = options.dist ? undefined : await loadConfig(root, env).catch((error: unknown) => (options.gate === true ? Promise.reject(error) : undefined));
  /** The development gate's secret, made (or read) the first time the site is built for the gate. */
  let devSecret: Buffer | undefined;
  let devEnded: EndedSessions | undefined;
  /** The settings of the development gate (roles, logout path), '' without one: it is made again when they change. */
  let devGateKey = '';
  const followSite = (site: ResolvedConfig['site']): void => {
    const key = site.gated ? JSON.stringify([site.auth.roles, site.app.logoutPath]) : '';
    if (key === devGateKey) return;
    devGateKey = key;
    if (!site.gated) return void (gate = undefined);
    // The gate turned on: the streams opened without a session end now.
    devSecret ??= options.env.DOCS_SESSION_SECRET ? sessionSecret(options.env) : developmentSecret(join(root, 'node_modules', '.cache', 'docs', 'serve-secret'));
    // The logouts taken so far stay taken when a config change makes the gate again (other roles, another logout path).
    devEnded ??= new EndedSessions(sessionSeconds(options), Date.now);
    const made = createGate({ secret: sessionKey(devSecret, options), roles: site.auth.roles, logoutPath: site.app.logoutPath, login: gateLogin(options), serve: staticFile, sessionSeconds: sessionSeconds(options), ended: devEnded, trustProxy: options.trustProxy });
    gate = made;
    live.prune((stream) => made.signedIn(stream));
  };
  if (config) followSite(withGate(config, options.gate).site);

  // The production host (a gated build served as it is) answers every name: a proxy on this machine asks
  // it by the site's public name (nginx's `proxy_set_header Host $host`), and to a page of another site
  // rebinding its own name here it gives what it gives any reader without a session (the sign-in shell):
  // the session cookie follows the name. Everywhere else a foreign name is refused (host-check.ts).
  const hostChecked = !(options.dist && gate);
  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    const refused = hostChecked ? foreignHost(request.headers.host, options.host) : undefined;
    if (refused) return void response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(refused);
    const url = requestUrl(request);
    if (!url) return badTarget(response);
    const path = url.pathname;
    if (!options.dist && path === EVENTS_PATH) {
      // The stream names routes (reloads) and quotes pages (build errors): behind the gate, for signed-in readers only.
      if (gate && !gate.signedIn(request)) return void response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', vary: 'cookie' }).end('Sign in first.');
      return live.connect(response, request);
    }
    if (!options.dist && path === CLIENT_PATH) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }).end(CLIENT_SCRIPT);
      return;
    }
    firstBuild.then(() => {
      // Asked once the first build is done: it says whether the site is built for the gate.
      if (path === '/api/login' && !options.backend && !gate) return handleDevLogin(request, response);
      if (built && gate && request.method === 'POST') {
        gate.handle(request, response);
        // A logout: the streams it opened end with it.
        const open = gate;
        return live.prune((stream) => open.signedIn(stream));
      }
      if (built) return (gate ? gate.handle : staticFile)(request, response);
      // No good build yet: a page that shows the overlay and reloads once the error is fixed.
      response.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      response.end(FIRST_BUILD_FAILED);
    }).catch((error: unknown) => answerFailure(response, error));
  };
  const server = createGuardedServer(answer);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenProblem(error, options.host, options.port) ?? error));
    server.listen(options.port, options.host, () => resolveListen());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  options.log(`docs serve: ${url}${options.dist ? ` (serving ${outDir} as it is)` : ''}`);
  if (gate) options.log(`Behind the gate: only a signed-in reader gets the pages${options.gate ? '' : options.dist ? ' (the build was made for it; --no-gate serves it to anyone)' : ' (gate: true in site.config.ts; --no-gate serves them to anyone)'}`);
  if (!options.backend) {
    options.log(`Development accounts, password ${DEV_ACCOUNTS[0]!.password}: ${DEV_ACCOUNTS.map((account) => `${account.email} (${account.roles.join(', ')}${account.otp ? `, one-time code ${account.otp}` : ''})`).join('; ')}`);
  }
  const gated = gate !== undefined || (options.gate !== false && (options.gate === true || config?.site.gated === true));
  for (const note of networkNotes(options.host, gated, !options.backend)) options.log(note);
  if (options.open) openBrowser(url);
  if (options.dist) return { url, close: () => closeServer(server, live) };

  let session: SiteSession | undefined;
  /** The server is stopping: an update it cuts short is no failure to report. */
  let closed = false;
  // The files the specs' `$ref`s name, wherever they are in the site, and the folders and files the
  // content walk reached through a link: watched once the watcher runs.
  let alsoWatched: string[] = [];
  /** When the build that found them started: a file there changed since may have changed after it was read. */
  let alsoSince = 0;
  let watchAlso: ((paths: string[], since: number) => void) | undefined;
  const renderThread = new RenderThread(options.workerUrl);
  /** The content folder as the last good build's config names it (a config saved while serving may move it). */
  let contentDir = config?.contentDir ?? join(root, 'content');
  /** The git history's dates and authors as the pages show them. */
  const gitDates = new GitDates();
  const fullBuild = async (): Promise<void> => {
    const buildStarted = Date.now();
    // Before the build reads the history: a commit made meanwhile is found by the next look.
    const historyRead = gitDates.beforeBuild(contentDir);
    // The first build is the one a writer waits for: a live line on a terminal shows how far it is.
    session?.dispose();
    const progress = createProgressLine(process.stderr, !built && options.progress !== false);
    // The folder is the server's own, in the cache: it is replaced even when its marker is gone (the cache was cleared meanwhile).
    const report = await buildSite({ root, outDir, env, workerUrl: options.workerUrl, renderThread: renderThread.current(), onProgress: progress.update, gate: options.gate, searchBlocks: true, keepSources: true, force: true }).finally(progress.clear);
    // Never stopped early: docs serve does not ask for `unchanged`, so the state is there.
    const state = report.state!;
    renderThread.built(state.context.markdown);
    session = new SiteSession(state, options.workerUrl ? () => renderThread.current() : undefined);
    followSite(report.state!.config.site);
    // What the config names now is watched too: a spec added, a content folder moved while serving.
    const named = state.config;
    contentDir = named.contentDir;
    alsoWatched = [named.contentDir, ...named.openapi.map((spec) => dirname(isAbsolute(spec.file) ? spec.file : join(root, spec.file))), ...state.api.refFiles.map(([path]) => path), ...(state.files.linked?.keys() ?? [])];
    alsoSince = buildStarted;
    watchAlso?.(alsoWatched, alsoSince);
    outDir = report.outDir;
    historyRead();
    built = true;
    for (const line of warningLines(report.warnings)) options.log(line);
    options.log(`Built ${report.pages} pages in ${report.seconds.toFixed(2)} s`);
  };
  const failed = (error: unknown): void => {
    const lines = errorLines(error);
    for (const line of lines) options.log(`error ${line}`);
    options.log(built ? 'Build failed; still serving the last good pages.' : 'Build failed; fix the error and save.');
    live.send({ type: 'build-error', errors: lines });
  };
  // Saves from here on reach the site: those the watcher reports, and those made before it watches.
  const startedAt = Date.now();
  // A small site's first build is faster without V8's optimizing compiler; the server runs on with it (build/optimizer.ts).
  mayHoldOptimizer();
  firstBuild = fullBuild().catch(failed).finally(releaseOptimizer);

  // The sources: content, specs, the config, the site's templates, and the runtime itself.
  const watched = [contentDir, join(root, 'templates'), join(PACKAGE_ROOT, 'runtime'), join(root, 'site.config.ts')];
  for (const spec of config?.openapi ?? []) watched.push(dirname(isAbsolute(spec.file) ? spec.file : join(root, spec.file)));
  // For the tests only: a watcher that starts late, as on a large site, where it reads the tree for
  // seconds while the first build (from warm caches) is already done.
  const watchDelay = Number(process.env.DOCS_TEST_WATCH_DELAY_MS ?? 0);
  if (watchDelay > 0) await new Promise((wait) => setTimeout(wait, watchDelay));
  // The roots are watched by their real paths (a content folder may itself be a link), and what the
  // content walk reached through a link, which the build names (`ContentFiles.linked`), is added once a
  // build found it: a save there builds in full (watch-roots.ts).
  const roots = watched.map((path) => (existsSync(path) ? realPath(path) : path));
  /** The content folder's real path, looked up again only when a config moved the folder. */
  let content = { dir: '', real: '' };
  const realContent = (): string => {
    if (content.dir !== contentDir) content = { dir: contentDir, real: existsSync(contentDir) ? realPath(contentDir) : contentDir };
    return content.real;
  };
  /** A path the watcher reports, below the content folder's real path, as the build knows it. */
  const sourcePath = (path: string): string => {
    const rel = relative(realContent(), path);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : join(contentDir, rel);
  };

  const pending = new Set<string>();
  // Files of a failed update: applied again with the next one, so the site never mixes old and new.
  let unsettled: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let searchTimer: NodeJS.Timeout | undefined;
  let queue: Promise<void> = Promise.resolve();
  /** The text of each content file as last applied, to catch a save chokidar did not report. */
  const applied = new Map<string, string | null>();
  const read = (path: string, unreadable: Diagnostic[] = []): string | null => readFileText(path, posixRelative(root, path), unreadable);
  /** A look at the repository's HEAD is queued (`GitDates.watch`). */
  let headQueued = false;
  const rebuild = async (changed: string[]): Promise<void> => {
    await firstBuild;
    headQueued = false;
    const seen = [...new Set([...unsettled, ...changed])];
    const started = performance.now();
    try {
      const unreadable: Diagnostic[] = [];
      for (const path of seen) applied.set(path, read(path, unreadable));
      // chokidar drops a second change of one file within 50 ms; look again once that window is over.
      setTimeout(() => {
        const missed = seen.filter((path) => read(path) !== applied.get(path));
        if (missed.length > 0) schedule(missed);
      }, 80).unref();
      // An editor's temporary copy (a safe write: faq.md___jb_tmp___, sed's sedAbC123, vim's 4913 or
      // .faq.md.swp) that the site does not read changes no page: it is passed by, as a partial is,
      // instead of building the whole site twice and reloading every tab. Not while the site fails: a
      // file added may be the one a page missed.
      const inContent = (path: string): boolean => !relative(contentDir, path).startsWith('..');
      const passed = (path: string): boolean => session !== undefined && !live.failing && inContent(path) && EDITOR_TEMPORARY.test(basename(path)) && !session.reads(path);
      const paths = seen.filter((path) => !passed(path));
      // A page saved after the output was removed (the cache cleared) needs the whole site built again.
      const contentOnly = session !== undefined && existsSync(join(outDir, OUTPUT_MARKER)) && paths.every((path) => inContent(path) && /\.mdx?$|\/_category_\.(json|ya?ml)$/.test(path));
      // A page saved in another encoding fails the update here, as it fails `docs build` (a full build reads every file itself).
      if (contentOnly && unreadable.length > 0) throw new DocsError('content', unreadable);
      // A commit since the dates were read (made while serving, or a checkout): they are read again, and
      // the pages whose date or author moved are rendered again with the saved ones.
      const history = contentOnly ? await gitDates.readIfMoved(contentDir) : undefined;
      let report = contentOnly ? await session!.update(paths.map((path): ContentChange => ({ rel: posixRelative(contentDir, path), text: applied.get(path) ?? null })), history?.dates) : 'full';
      history?.taken();
      if (report === 'full') {
        await fullBuild();
        report = { routes: ['*'], warnings: [], seconds: (performance.now() - started) / 1000 };
      } else if (report.routes.length === 0) {
        // Only files that are no page changed (a `_partial.md`), or the site is as the last good build
        // left it (a broken category file put back as it was): nothing to reload, but an error shown goes.
        unsettled = [];
        if (live.failing) {
          options.log('Fixed: the site is as the last good build left it');
          live.send({ type: 'ok' });
        }
        return;
      } else {
        for (const line of warningLines(report.warnings)) options.log(line);
        options.log(`Updated ${report.routes.length === 1 ? report.routes[0] : `${report.routes.length} pages`} in ${Math.round(report.seconds * 1000)} ms`);
      }
      unsettled = [];
      live.send({ type: 'reload', routes: report.routes });
      // The index follows a moment later, once the reloading page's own requests have been answered
      // (rewriting it takes the event loop for ~0.1 s on the portal); a burst of saves rewrites it once.
      clearTimeout(searchTimer);
      if (report.routes[0] !== '*') searchTimer = setTimeout(() => void session?.refreshSearch().catch((error: unknown) => options.log(`warning the search index was not updated: ${error instanceof Error ? error.message : String(error)}`)), SEARCH_REFRESH_DELAY_MS).unref();
    } catch (error) {
      // An update the server's stop cut short (its render thread went first) is no failure to report.
      if (closed) return;
      unsettled = seen;
      failed(error);
    }
  };
  const schedule = (paths: string[]): void => {
    for (const path of paths) pending.add(path);
    clearTimeout(timer);
    // Editors write a file in several steps; one short pause gathers them into one update.
    timer = setTimeout(() => {
      const batch = [...pending];
      pending.clear();
      queue = queue.then(() => rebuild(batch));
    }, 20);
  };
  const sources = watchSources({ roots, startedAt, delayMs: watchDelay, onChange: (paths) => schedule(paths.map(sourcePath)) });
  watchAlso = (paths, since) => sources.also(paths, since);
  watchAlso(alsoWatched, alsoSince);
  await sources.ready;
  // A file saved before the watcher had read its folder is not reported (at 10,000 pages the watcher
  // reads the tree for seconds, and the first build from warm caches is done before it): every file
  // changed since the server started is applied now. One the first build already read is re-rendered
  // as it is, which costs a moment and changes nothing.
  sources.applyChangedSince(startedAt);
  // A commit changes no watched file (the watcher leaves `.git` alone): its HEAD is looked at instead.
  const stopHeadCheck = gitDates.watch(
    () => contentDir,
    () => built && !headQueued && !live.failing && session !== undefined,
    () => {
      headQueued = true;
      schedule([]);
    },
  );

  return {
    url,
    report: failed,
    close: async () => {
      closed = true;
      // A render under way fails at once (its update is dropped): the thread goes now.
      const stopping = renderThread.stop();
      clearTimeout(timer);
      stopHeadCheck();
      clearTimeout(searchTimer);
      session?.dispose();
      await sources.close();
      await queue;
      // An update that was under way may have started a highlighter again.
      session?.dispose();
      await stopping;
      await closeServer(server, live);
    },
  };
}
