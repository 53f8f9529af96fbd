/**
 * Stage 4b, openapi: one info page per spec and one page per operation, written as markdown so they
 * go through the same pipeline as every page (headings and TOC, shiki, link checks). The pages are
 * files of a virtual folder below the spec's route; operations are grouped in one folder per tag.
 */
import { asWritten, attribute, fenced, frontmatter, markdownLink } from './markdown-text';
import type { OpenAPIV3 } from 'openapi-types';
import type { SourceFile } from '../content';
import type { LoadedSpec } from './load';
import { codeSamples, sampleRequest, type CodeSample } from './samples';
import { isWindowsDevice } from '../routes';
import { operationSecurityLines, overviewSecurityLines } from './security';
import { code, inline } from './schema';
import { callbackLines, mediaLines, parameterTable, responseLines } from './sections';

/** The HTTP methods of a path item, in the order pages list them. */
export const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;

/** What the generated pages need from the site. */
export interface ApiPagesOptions {
  /** Headers every call sends, e.g. `X-Quad-Version: WEB/4.0.0 (1)`. */
  defaultHeaders: [string, string][];
  /**
   * Where a relative server URL (`/v2`), or a spec that names no server (OpenAPI's default is `/`),
   * points: the site's backend (`app.backendUrl`), standing in for the place the spec is served from.
   */
  backendUrl: string;
}

/** The virtual files of one spec: markdown pages and the tag folders' `_category_.json`. */
export interface ApiFiles {
  markdown: SourceFile[];
  categories: SourceFile[];
}

/** `userLogin` → `user-login`; any other text → lower-case words joined by dashes. */
export function kebab(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** One operation of a spec, with what its page and samples need. */
interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  operation: OpenAPIV3.OperationObject;
  /** The path item's parameters and the operation's own, which win over a path one of the same place and name. */
  parameters: OpenAPIV3.ParameterObject[];
  /** Security requirements that apply: the operation's own, else the spec's. */
  security: OpenAPIV3.SecurityRequirementObject[];
  /** Servers it is called on: its own, else its path item's, else the spec's (OpenAPI's order). */
  servers: OpenAPIV3.ServerObject[];
  /** True when `servers` are the operation's or its path's own, not the spec's. */
  ownServers: boolean;
  slug: string;
  title: string;
  /** For a webhook (OpenAPI 3.1 `webhooks`), its name: the API sends this request, the reader's server answers it. */
  webhook?: string;
}

/** The sidebar group (and overview section) of a spec's webhooks, after its tags unless it lists a tag of this name. */
const WEBHOOKS = 'Webhooks';

/** The security schemes a spec defines, by name. */
function schemesOf(document: OpenAPIV3.Document): Record<string, OpenAPIV3.SecuritySchemeObject> {
  return (document.components?.securitySchemes ?? {}) as Record<string, OpenAPIV3.SecuritySchemeObject>;
}

function operationsOf(document: OpenAPIV3.Document): Operation[] {
  const operations: Operation[] = [];
  // A webhook is a path item under a name instead of a path (3.1): its request comes from the API.
  const webhooks = (document as { webhooks?: Record<string, OpenAPIV3.PathItemObject | undefined> }).webhooks ?? {};
  const items = [...Object.entries(document.paths ?? {}).map(([path, item]) => [path, item, undefined] as const), ...Object.entries(webhooks).map(([name, item]) => [name, item, name] as const)];
  for (const [path, item, webhook] of items) {
    if (!item) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const byPlace = new Map<string, OpenAPIV3.ParameterObject>();
      for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])] as OpenAPIV3.ParameterObject[]) byPlace.set(`${parameter.in}:${parameter.name}`, parameter);
      // An empty list names no server: the next level's apply.
      const own = [operation.servers, item.servers].find((servers) => servers && servers.length > 0);
      operations.push({
        method,
        path,
        operation,
        parameters: [...byPlace.values()],
        // The spec's security is for calling the API: a webhook has only its own.
        security: operation.security ?? (webhook === undefined ? document.security : undefined) ?? [],
        // A webhook is called on the reader's server, never on the API's.
        servers: webhook === undefined ? (own ?? document.servers ?? []) : [],
        ownServers: webhook === undefined && own !== undefined,
        slug: '',
        // A blank summary or operationId names nothing: the next one does.
        title: [operation.summary, operation.operationId].find((name) => name !== undefined && name.trim() !== '') ?? `${method.toUpperCase()} ${path}`,
        ...(webhook === undefined ? {} : { webhook }),
      });
    }
  }
  giveSlugs(operations);
  return operations;
}

/**
 * Each operation's page name: its operationId, else its summary, else method and path, in kebab case.
 * A name with no letter or digit left (`チーム一覧`, `!!`) falls back to method and path; a name another
 * operation of the spec already has (two summaries alike, `getUser` and `get_user`) or the overview's
 * `index` gets its method and path added, then a number.
 */
function giveSlugs(operations: Operation[]): void {
  const taken = new Set(['index']);
  for (const op of operations) {
    const fallback = kebab(`${op.method} ${op.path}`) || op.method;
    const named = kebab(op.operation.operationId ?? '') || kebab(op.operation.summary ?? '') || fallback;
    // A name Windows keeps for a device (`aux`, `con`) is no folder name there: taken too.
    let slug = taken.has(named) || isWindowsDevice(named) ? (named === fallback ? fallback : `${named}-${fallback}`) : named;
    for (let n = 2; taken.has(slug); n++) slug = `${named}-${n}`;
    taken.add(slug);
    op.slug = slug;
  }
}

function firstSentence(text: string | undefined): string | undefined {
  const plain = inline(text).replace(/[*_`[\]]/g, '');
  if (!plain) return undefined;
  const end = plain.search(/\.(\s|$)/);
  return end === -1 ? plain : plain.slice(0, end + 1);
}

function operationPage(spec: LoadedSpec, op: Operation, base: string, options: ApiPagesOptions): string {
  const { document } = spec;
  const { operation } = op;
  const lines = [
    frontmatter({
      title: op.title,
      sidebar_label: op.title,
      sidebar_class_name: `api-method api-method-${op.method}`,
      slug: `${base}/${op.slug}`,
      description: firstSentence(operation.description) ?? `${op.method.toUpperCase()} ${op.path}`,
    }),
    `::api-endpoint{method="${op.method}" path="${attribute(op.path)}"${operation.operationId && /^[\w.-]+$/.test(operation.operationId) ? ` operation="${operation.operationId}"` : ''}}`,
    '',
  ];
  if (op.webhook !== undefined) lines.push(`A webhook: the API sends this request to the URL your service registered for ${code(op.webhook)}, and reads the answer your service gives (Responses).`, '');
  if (operation.deprecated) lines.push(':::danger[Deprecated]', 'This operation is deprecated: do not use it in new code, and move existing callers to its replacement.', ':::', '');
  if (operation.description) lines.push(operation.description.trim(), '');
  if (op.ownServers) lines.push('## Servers', '', 'This operation is called on a server of its own, not on those of the overview:', '', ...serverLines(op.servers), '');

  const body = operation.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  if (op.parameters.length > 0 || body) {
    lines.push('## Request', '');
    for (const location of ['path', 'query', 'header', 'cookie']) {
      const group = op.parameters.filter((parameter) => parameter.in === location);
      if (group.length === 0) continue;
      lines.push(`### ${location.charAt(0).toUpperCase()}${location.slice(1)} parameters`, '', ...parameterTable(group), '');
    }
    if (body) {
      lines.push('### Request body', '');
      if (body.description) lines.push(body.description.trim(), '');
      lines.push(body.required ? 'The body is required.' : 'The body is optional.', '', ...mediaLines(body.content, 'Example'));
    }
  }

  lines.push('## Responses', '', ...responseLines(operation.responses, '###'));
  lines.push(...callbackLines(operation));

  lines.push('## Security', '', ...operationSecurityLines(op.security, schemesOf(document)), '');
  // Code samples call the API; a webhook's request is the API's to send.
  if (op.webhook !== undefined) return lines.join('\n');
  lines.push('## Code samples', '', ':::tabs');
  for (const sample of samplesOf(spec, op, options)) lines.push(...fenced(sample.lang, ` title="${sample.label}"`, sample.code));
  lines.push(':::', '');
  return lines.join('\n');
}

/**
 * The URL of a server object with its `{variables}` filled with their defaults (OpenAPI requires one;
 * an enum's first value, else the name, when a spec leaves it out anyway).
 */
export function serverUrl(server: OpenAPIV3.ServerObject): string {
  return server.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const variable = server.variables?.[name];
    if (!variable) return whole;
    return String(variable.default ?? variable.enum?.[0] ?? name);
  });
}

/**
 * The address code samples call: the first server's URL, its variables filled. A relative URL (`/v2`,
 * `v2`), or no server at all (OpenAPI then means `/`), is resolved against the site's backend: a
 * sample must name a host to run.
 */
export function sampleServer(servers: OpenAPIV3.ServerObject[], backendUrl: string): string {
  const url = servers[0] ? serverUrl(servers[0]) : '/';
  // With a scheme (`https:`) it is absolute; else relative to where the spec is served.
  if (/^[a-z][a-z\d+.-]*:/i.test(url)) return url;
  try {
    return new URL(url.startsWith('//') ? `https:${url}` : url, backendUrl.endsWith('/') ? backendUrl : `${backendUrl}/`).href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** A list of servers, each with its variables (their defaults and choices). */
function serverLines(servers: OpenAPIV3.ServerObject[]): string[] {
  const lines: string[] = [];
  for (const server of servers) {
    lines.push(`- ${code(server.url)}${server.description ? ` — ${inline(server.description)}` : ''}`);
    for (const [name, variable] of Object.entries(server.variables ?? {})) {
      const choices = variable.enum && variable.enum.length > 0 ? `, one of ${variable.enum.map((value) => code(String(value))).join(', ')}` : '';
      lines.push(`  - ${code(`{${name}}`)}: ${code(String(variable.default))} by default${choices}${variable.description ? ` — ${inline(variable.description)}` : ''}`);
    }
  }
  return lines;
}

function samplesOf(spec: LoadedSpec, op: Operation, options: ApiPagesOptions): CodeSample[] {
  const server = sampleServer(op.servers, options.backendUrl);
  return codeSamples(
    sampleRequest({ server, path: op.path, method: op.method, operation: op.operation, parameters: op.parameters, securitySchemes: schemesOf(spec.document), security: op.security, defaultHeaders: options.defaultHeaders }),
  );
}

/** Every operation's code samples, by operation slug (the tests run each through its language's syntax check). */
export function operationSamples(spec: LoadedSpec, options: ApiPagesOptions): { slug: string; samples: CodeSample[] }[] {
  return operationsOf(spec.document)
    .filter((op) => op.webhook === undefined)
    .map((op) => ({ slug: op.slug, samples: samplesOf(spec, op, options) }));
}

function infoPage(spec: LoadedSpec, base: string, operations: Operation[], groups: Map<string, Operation[]>, options: ApiPagesOptions): string {
  const { document } = spec;
  const info = document.info;
  const infoSlug = spec.config.infoSlug ?? '';
  const lines = [frontmatter({ title: info.title, sidebar_label: 'Overview', sidebar_position: 0, slug: infoSlug ? `${base}/${infoSlug}` : base, description: firstSentence(info.description) ?? `${info.title} API reference` }), ''];
  const webhooks = operations.filter((op) => op.webhook !== undefined).length;
  const called = operations.length - webhooks;
  const counts = `${called} operation${called === 1 ? '' : 's'}${webhooks > 0 ? ` · ${webhooks} webhook${webhooks === 1 ? '' : 's'}` : ''}`;
  lines.push(`Version ${code(info.version)} · OpenAPI ${code((document as { openapi: string }).openapi)} · ${counts} · source ${code(spec.file)}`, '');
  if (info.description) lines.push(info.description.trim(), '');
  const servers = document.servers ?? [];
  const sampled = sampleServer(servers, options.backendUrl);
  lines.push('## Servers', '');
  if (servers.length === 0) lines.push(`The specification names no server, so the code samples call the site's backend, ${code(sampled)}.`, '');
  else lines.push(...serverLines(servers), '');
  if (servers.length > 0 && sampled !== serverUrl(servers[0]!)) lines.push(`The first address is relative: the code samples read it from the site's backend and call ${code(sampled)}.`, '');
  const needs = operations.filter((op) => op.webhook === undefined).map((op) => op.security);
  const security = overviewSecurityLines(document.security ?? [], needs, schemesOf(document));
  if (security.length > 0) lines.push('## Security schemes', '', ...security);
  lines.push('## Operations', '');
  for (const [tag, members] of groups) {
    if (tag) lines.push(`### ${inline(tag)}`, '');
    const description = document.tags?.find((candidate) => candidate.name === tag)?.description;
    if (description) lines.push(description.trim(), '');
    for (const op of members) lines.push(`- [${code(op.method.toUpperCase())} ${code(op.path)} — ${inline(op.title)}](${base}/${op.slug})${op.operation.deprecated && !/\(deprecated\)\s*$/i.test(op.title) ? ' *(deprecated)*' : ''}`);
    lines.push('');
  }
  if (info.contact?.email || info.contact?.url) {
    const { name, email, url } = info.contact;
    const ways = [email ? markdownLink(email, `mailto:${email}`) : '', url ? markdownLink(url, url) : ''].filter(Boolean);
    lines.push('## Contact', '', `${name ? asWritten(name) : 'The team'}: ${ways.join(', ')}`, '');
  }
  if (info.license?.name) lines.push('## License', '', info.license.url ? markdownLink(info.license.name, info.license.url) : asWritten(info.license.name), '');
  return lines.join('\n');
}

/** The pages of one spec as files of the content tree, below the folder of its route. */
export function apiPages(spec: LoadedSpec, options: ApiPagesOptions): ApiFiles {
  const base = spec.config.route.replace(/\/+$/, '');
  const folder = base.replace(/^\//, '');
  const operations = operationsOf(spec.document);
  const tagOrder = (spec.document.tags ?? []).map((tag) => tag.name);
  const groups = new Map<string, Operation[]>();
  for (const op of operations) {
    const tag = op.webhook !== undefined ? WEBHOOKS : (op.operation.tags?.[0] ?? '');
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag)!.push(op);
  }
  const ordered = new Map([...groups].sort(([a], [b]) => rank(tagOrder, a) - rank(tagOrder, b)));
  const infoSlug = spec.config.infoSlug ?? '';
  const markdown: SourceFile[] = [{ rel: `${folder}/${infoSlug || 'index'}.md`, text: infoPage(spec, base, operations, ordered, options) }];
  const categories: SourceFile[] = [{ rel: `${folder}/_category_.json`, text: JSON.stringify({ label: spec.document.info.title, position: 100 }) }];
  // One folder per tag: tags whose names differ only in case or punctuation (`Users`, `users`) get
  // folders of their own (`users`, `users-2`), so neither takes the other's label and pages.
  const dirs = new Set<string>();
  [...ordered].forEach(([tag, members], index) => {
    let dir = folder;
    if (tag) {
      const named = `${folder}/${kebab(tag) || `tag-${index}`}`;
      dir = named;
      for (let n = 2; dirs.has(dir); n++) dir = `${named}-${n}`;
      dirs.add(dir);
    }
    if (tag) categories.push({ rel: `${dir}/_category_.json`, text: JSON.stringify({ label: tag, position: index + 1 }) });
    members.forEach((op, position) => {
      const text = operationPage(spec, op, base, options).replace(/^---\n/, `---\nsidebar_position: ${position + 1}\n`);
      markdown.push({ rel: `${dir}/${op.slug}.md`, text });
    });
  });
  return { markdown, categories };
}

function rank(order: string[], tag: string): number {
  const index = order.indexOf(tag);
  if (index !== -1) return index;
  return tag === WEBHOOKS ? order.length + 2 : tag ? order.length : order.length + 1;
}
