/**
 * The sections of an operation's page that describe what travels: its parameters, a body (of the
 * request or of an answer), its answers, and the requests it makes the API send back (callbacks).
 */
import type { OpenAPIV3 } from 'openapi-types';
import { fenced, tableCell } from './markdown-text';
import { code, exampleOf, inline, json, schemaFacts, schemaTree, typeLabel, type Schema } from './schema';

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK', '201': 'Created', '202': 'Accepted', '204': 'No Content', '301': 'Moved Permanently', '302': 'Found', '304': 'Not Modified',
  '400': 'Bad Request', '401': 'Unauthorized', '403': 'Forbidden', '404': 'Not Found', '405': 'Method Not Allowed', '409': 'Conflict',
  '410': 'Gone', '412': 'Precondition Failed', '413': 'Content Too Large', '415': 'Unsupported Media Type', '422': 'Unprocessable Content',
  '426': 'Upgrade Required', '429': 'Too Many Requests', '500': 'Internal Server Error', '502': 'Bad Gateway', '503': 'Service Unavailable',
};

/**
 * How a list in the query string is written (OpenAPI `style` and `explode`; a query parameter is
 * `form` and exploded unless it says otherwise): `status=active&status=spare` or `status=active,spare`.
 */
function listInQuery(parameter: OpenAPIV3.ParameterObject, schema: Schema): string[] {
  if (parameter.in !== 'query' || !(Array.isArray(schema.type) ? schema.type.includes('array') : schema.type === 'array')) return [];
  const items = (schema.items ?? {}) as Schema;
  const given = Array.isArray(parameter.example ?? schema.example) ? ((parameter.example ?? schema.example) as unknown[]) : undefined;
  const values = (given ?? items.enum ?? ['a', 'b']).slice(0, 2).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  const style = parameter.style ?? 'form';
  const explode = parameter.explode ?? style === 'form';
  const name = parameter.name;
  const written =
    style === 'form' && explode ? values.map((value) => `${name}=${value}`).join('&') : `${name}=${values.join(style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',')}`;
  return [`sent as ${code(written)}`];
}

export function parameterTable(parameters: OpenAPIV3.ParameterObject[]): string[] {
  const lines = ['| Name | Type | Required | Description |', '| --- | --- | --- | --- |'];
  for (const parameter of parameters) {
    // A parameter is described by `schema`, or by `content`: one media type and its schema (a JSON
    // object in the query string, say), whose fields are listed after the description.
    const [media, described] = Object.entries(parameter.content ?? {})[0] ?? [];
    const schema = (parameter.schema ?? described?.schema ?? {}) as Schema;
    const facts = schemaFacts(schema, false).concat(parameter.deprecated ? ['deprecated'] : [], listInQuery(parameter, schema));
    const example = parameter.example ?? described?.example ?? schema.example;
    const fields = parameter.schema === undefined && media !== undefined ? contentFields(media, schema) : '';
    const description = [inline(parameter.description), facts.join(' · '), fields, example !== undefined ? `Example: ${code(json(example))}` : ''].filter(Boolean).join(' — ');
    lines.push(`| ${[code(parameter.name), code(typeLabel(schema)), parameter.required ? 'required' : 'optional', description].map(tableCell).join(' | ')} |`);
  }
  return lines;
}

/** A `content` parameter's media type and the fields of its object, on one line of a table cell. */
function contentFields(media: string, schema: Schema): string {
  const properties = Object.entries(schema.properties ?? {}) as [string, Schema][];
  const required = new Set(schema.required ?? []);
  const listed = properties.map(([name, property]) => `${code(name)} ${code(typeLabel(property))}${required.has(name) ? ' required' : ''}${property.description ? ` (${inline(property.description)})` : ''}`);
  return [`written as ${code(media)}`, listed.length > 0 ? `fields: ${listed.join(', ')}` : ''].filter(Boolean).join('; ');
}

/** The answers of an operation (or of a callback), one heading of `level` each. */
export function responseLines(responses: OpenAPIV3.ResponsesObject | undefined, level: string): string[] {
  const lines: string[] = [];
  for (const [status, response] of Object.entries(responses ?? {}) as [string, OpenAPIV3.ResponseObject][]) {
    const phrase = STATUS_TEXT[status] ?? (status === 'default' ? 'Any other status' : '');
    lines.push(`${level} ${code(status)}${phrase ? ` ${phrase}` : ''}`, '');
    if (response.description) lines.push(response.description.trim(), '');
    const headers = Object.entries(response.headers ?? {}) as [string, OpenAPIV3.HeaderObject][];
    if (headers.length > 0) {
      lines.push('Headers:', '');
      for (const [name, header] of headers) lines.push(`- ${code(name)} ${code(typeLabel((header.schema ?? {}) as Schema))}${header.description ? ` — ${inline(header.description)}` : ''}`);
      lines.push('');
    }
    lines.push(...mediaLines(response.content, 'Example'));
  }
  return lines;
}

/** The HTTP methods a callback's path item may hold, in the order they are listed. */
const CALLBACK_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The requests the operation makes the API send to the reader's service (OpenAPI `callbacks`): for
 * each, where it goes (a runtime expression such as `{$request.body#/callbackUrl}`), its body and the
 * answers the API expects — as a webhook's page shows them.
 */
export function callbackLines(operation: OpenAPIV3.OperationObject): string[] {
  const callbacks = Object.entries(operation.callbacks ?? {}) as [string, OpenAPIV3.CallbackObject][];
  if (callbacks.length === 0) return [];
  const lines = ['## Callbacks', '', 'Requests the API sends to your service once this operation is called; your service answers them.', ''];
  for (const [name, callback] of callbacks) {
    lines.push(`### ${code(name)}`, '');
    for (const [expression, item] of Object.entries(callback ?? {}) as [string, OpenAPIV3.PathItemObject][]) {
      for (const method of CALLBACK_METHODS) {
        const request = item?.[method];
        if (!request) continue;
        lines.push(`${code(`${method.toUpperCase()} ${expression}`)}${request.summary ? ` — ${inline(request.summary)}` : ''}`, '');
        if (request.description) lines.push(request.description.trim(), '');
        const body = request.requestBody as OpenAPIV3.RequestBodyObject | undefined;
        if (body) {
          lines.push(`Request body${body.required ? ' (required)' : ''}:${body.description ? ` ${inline(body.description)}` : ''}`, '', ...mediaLines(body.content, 'Example'));
        }
        const answers = responseLines(request.responses, '####');
        if (answers.length > 0) lines.push('Answers your service gives:', '', ...answers);
      }
    }
  }
  return lines;
}

export function mediaLines(content: Record<string, OpenAPIV3.MediaTypeObject> | undefined, exampleLabel: string): string[] {
  const lines: string[] = [];
  for (const [type, media] of Object.entries(content ?? {})) {
    const schema = media.schema as Schema | undefined;
    lines.push(`Content type ${code(type)}${schema ? ` · ${code(typeLabel(schema))}` : ''}`, '');
    if (schema) {
      const tree = schemaTree(schema);
      if (schema.description) lines.push(schema.description.trim(), '');
      if (tree.length > 0) lines.push(...tree, '');
    }
    const examples = media.examples ? Object.entries(media.examples) : [];
    if (media.example !== undefined || examples.length === 0) {
      const value = media.example ?? exampleOf(schema);
      if (value !== undefined && type.includes('json')) lines.push(`${exampleLabel}:`, '', ...fenced('json', '', json(value, 2)), '');
    }
    for (const [name, example] of examples) {
      if (!('value' in example)) continue;
      lines.push(`${exampleLabel} ${code(name)}${example.summary ? ` — ${inline(example.summary)}` : ''}:`, '', ...fenced('json', '', json(example.value, 2)), '');
    }
  }
  return lines;
}

