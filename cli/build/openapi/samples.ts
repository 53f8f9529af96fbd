/**
 * Code samples for an operation in curl, ruby, nodejs and python: complete programs using only each
 * language's standard library (Node 18+ `fetch`, Ruby `net/http`, Python `urllib`), so they run as
 * they are. Every sample of every spec is syntax-checked by the tests.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { acyclic, exampleOf, type Schema } from './schema';

/** The request a sample makes. */
export interface SampleRequest {
  method: string;
  /** Absolute URL, query included. */
  url: string;
  headers: [string, string][];
  /** JSON body, when the operation takes one. */
  body?: unknown;
}

/** One tab of the samples. */
export interface CodeSample {
  /** Tab label, also the remembered choice: `curl`, `ruby`, `nodejs`, `python`. */
  label: string;
  /** Fence language for highlighting. */
  lang: string;
  code: string;
}

/** The tabs, in order. */
export const SAMPLE_LABELS = ['curl', 'ruby', 'nodejs', 'python'] as const;

/** Placeholder values for credentials the reader fills in. */
const SECRET = { apiKey: 'YOUR_API_KEY', token: 'YOUR_TOKEN' };

/** Options of `sampleRequest`. */
export interface SampleRequestOptions {
  /** Server the samples call (the spec's first server). */
  server: string;
  path: string;
  method: string;
  operation: OpenAPIV3.OperationObject;
  /** Every parameter of the operation, the path item's included. */
  parameters: OpenAPIV3.ParameterObject[];
  securitySchemes: Record<string, OpenAPIV3.SecuritySchemeObject>;
  /** Security requirements applying to the operation (its own, else the spec's). */
  security: OpenAPIV3.SecurityRequirementObject[];
  /** Headers every call of the product sends, e.g. the version header (used unless the spec declares them). */
  defaultHeaders: [string, string][];
}

function parameterExample(parameter: OpenAPIV3.ParameterObject): unknown {
  if (parameter.example !== undefined) return acyclic(parameter.example);
  const first = parameter.examples ? Object.values(parameter.examples)[0] : undefined;
  if (first && 'value' in first) return acyclic(first.value);
  return acyclic(exampleOf(parameter.schema as Schema | undefined));
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A header name HTTP can carry (RFC 9110 token); a parameter with another name cannot be sent. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A header value every sample can send alike: line breaks and other control characters cannot be sent,
 * so each run of them becomes one space (what a folded header line meant in HTTP/1.1), and characters
 * outside ASCII, which `fetch` refuses and servers read in different encodings, are percent-encoded
 * UTF-8. Bodies, paths and queries carry every character exactly.
 */
export function headerValue(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]+/g, ' ')
    .trim()
    .replace(/[^\x00-\x7f]/gu, (char) => {
      try {
        return encodeURIComponent(char);
      } catch {
        return '%EF%BF%BD';
      }
    });
}

/** A URL as the samples write it: glob characters (curl) and anything outside printable ASCII percent-encoded. */
function plainUrl(url: string): string {
  return url.replace(/[^\x21-\x7e]|[[\]{}"`\\<>^|]/gu, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: no URL can carry it
    }
  });
}

/** The request an operation's samples make: path filled from examples, query, headers, auth and a JSON body. */
export function sampleRequest(options: SampleRequestOptions): SampleRequest {
  let path = options.path;
  const query = new URLSearchParams();
  const headers: [string, string][] = [['Accept', 'application/json']];
  /** `name=value` pairs of the Cookie header (RFC 6265: a token, then a value percent-encoded like a form's). */
  const cookies: string[] = [];
  for (const parameter of options.parameters) {
    const value = parameterExample(parameter);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(text(value ?? parameter.name)));
    else if (value === undefined && !parameter.required) continue;
    else if (parameter.in === 'query') query.append(parameter.name, text(value ?? ''));
    else if (parameter.in === 'header' && TOKEN.test(parameter.name)) headers.push([parameter.name, headerValue(text(value ?? ''))]);
    else if (parameter.in === 'cookie' && TOKEN.test(parameter.name)) cookies.push(`${parameter.name}=${encodeURIComponent(text(value ?? ''))}`);
  }
  const declared = new Set(headers.map(([name]) => name.toLowerCase()));
  for (const [name, value] of options.defaultHeaders) if (!declared.has(name.toLowerCase())) headers.push([name, headerValue(value)]);
  // The first security alternative: the one a reader most likely uses.
  for (const name of Object.keys(options.security[0] ?? {})) {
    const scheme = options.securitySchemes[name];
    if (!scheme) continue;
    if (scheme.type === 'apiKey' && scheme.in === 'header' && TOKEN.test(scheme.name)) headers.push([scheme.name, `YOUR_${scheme.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`]);
    else if (scheme.type === 'apiKey' && scheme.in === 'query') query.append(scheme.name, SECRET.apiKey);
    else if (scheme.type === 'apiKey' && scheme.in === 'cookie' && TOKEN.test(scheme.name)) cookies.push(`${scheme.name}=${SECRET.apiKey}`);
    else if (scheme.type === 'http' && scheme.scheme.toLowerCase() === 'basic') headers.push(['Authorization', 'Basic YOUR_BASE64_CREDENTIALS']);
    else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') headers.push(['Authorization', `Bearer ${SECRET.token}`]);
  }
  if (cookies.length > 0 && !declared.has('cookie')) headers.push(['Cookie', cookies.join('; ')]);
  let body: unknown;
  const content = (options.operation.requestBody as OpenAPIV3.RequestBodyObject | undefined)?.content;
  const media = content?.['application/json'] ?? Object.entries(content ?? {}).find(([type]) => type.endsWith('+json'))?.[1];
  if (media) {
    const named = media.examples ? Object.values(media.examples)[0] : undefined;
    body = acyclic(media.example ?? (named && 'value' in named ? named.value : undefined) ?? exampleOf(media.schema as Schema | undefined) ?? {});
    headers.splice(1, 0, ['Content-Type', 'application/json']);
  }
  const search = query.toString();
  return { method: options.method.toUpperCase(), url: plainUrl(`${options.server.replace(/\/$/, '')}${path}${search ? `?${search}` : ''}`), headers, body };
}

const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;
/**
 * A Ruby string literal: single-quoted (nothing is interpolated) when the text is printable, else
 * double-quoted with JSON's escapes, which Ruby reads alike, and `#` escaped so `#{…}` stays text.
 * No raw line break ever reaches the sample (it could end the markdown fence around it).
 */
const rubyString = (value: string): string =>
  /[\u0000-\u001f\u007f\u2028\u2029]/.test(value) ? JSON.stringify(value).replace(/#/g, '\\#').replace(/[\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** JSON strings are valid string literals in JavaScript and Python (line separators escaped for older parsers). */
const jsonString = (value: string): string => JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/** A JSON value as a Ruby, Python or JavaScript literal, pretty-printed with two spaces per level. */
function literal(value: unknown, language: 'ruby' | 'python' | 'js', level: number): string {
  const pad = '  '.repeat(level + 1);
  const close = '  '.repeat(level);
  if (value === null || value === undefined) return language === 'ruby' ? 'nil' : language === 'python' ? 'None' : 'null';
  if (typeof value === 'boolean') return language === 'python' ? (value ? 'True' : 'False') : String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'string') return language === 'ruby' ? rubyString(value) : jsonString(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((item) => `${pad}${literal(item, language, level + 1)}`).join(',\n')}\n${close}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const arrow = language === 'ruby' ? ' => ' : ': ';
  // In a JavaScript object literal a `__proto__` key sets the prototype instead: computed, it is a key.
  const key = (name: string): string => (language === 'ruby' ? rubyString(name) : language === 'js' && name === '__proto__' ? `[${jsonString(name)}]` : jsonString(name));
  return `{\n${entries.map(([name, item]) => `${pad}${key(name)}${arrow}${literal(item, language, level + 1)}`).join(',\n')}\n${close}}`;
}

function curl(request: SampleRequest): string {
  const lines = [`curl --request ${request.method}`, `  --url ${shellQuote(request.url)}`];
  for (const [name, value] of request.headers) lines.push(`  --header ${shellQuote(`${name}: ${value}`)}`);
  if (request.body !== undefined) lines.push(`  --data ${shellQuote(JSON.stringify(request.body, null, 2))}`);
  return lines.join(' \\\n');
}

function ruby(request: SampleRequest): string {
  const method = request.method.charAt(0) + request.method.slice(1).toLowerCase();
  const lines = ["require 'json'", "require 'net/http'", "require 'uri'", '', `uri = URI(${rubyString(request.url)})`, `request = Net::HTTP::${method}.new(uri)`];
  for (const [name, value] of request.headers) lines.push(`request[${rubyString(name)}] = ${rubyString(value)}`);
  if (request.body !== undefined) lines.push(`request.body = JSON.generate(${literal(request.body, 'ruby', 0)})`);
  lines.push('', "response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == 'https') do |http|", '  http.request(request)', 'end', 'puts response.code', 'puts response.body');
  return lines.join('\n');
}

function nodejs(request: SampleRequest): string {
  const headers = request.headers.map(([name, value]) => `    ${jsonString(name)}: ${jsonString(value)},`);
  const lines = [`fetch(${jsonString(request.url)}, {`, `  method: ${jsonString(request.method)},`, '  headers: {', ...headers, '  },'];
  if (request.body !== undefined) lines.push(`  body: JSON.stringify(${literal(request.body, 'js', 1)}),`);
  lines.push('})', '  .then(async (response) => {', '    console.log(response.status, await response.text());', '  })', '  .catch((error) => console.error(error));');
  return lines.join('\n');
}

function python(request: SampleRequest): string {
  const headers = request.headers.map(([name, value]) => `        ${jsonString(name)}: ${jsonString(value)},`);
  const lines = ['import json', 'import urllib.request', '', 'request = urllib.request.Request(', `    ${jsonString(request.url)},`, `    method=${jsonString(request.method)},`, '    headers={', ...headers, '    },'];
  if (request.body !== undefined) lines.push(`    data=json.dumps(${literal(request.body, 'python', 1)}).encode("utf-8"),`);
  lines.push(')', 'with urllib.request.urlopen(request) as response:', '    print(response.status, response.read().decode("utf-8"))');
  return lines.join('\n');
}

/** The four samples of one request, in tab order. */
export function codeSamples(request: SampleRequest): CodeSample[] {
  return [
    { label: 'curl', lang: 'bash', code: curl(request) },
    { label: 'ruby', lang: 'ruby', code: ruby(request) },
    { label: 'nodejs', lang: 'javascript', code: nodejs(request) },
    { label: 'python', lang: 'python', code: python(request) },
  ];
}
