/**
 * The security sections of the API pages, as markdown (part of stage 4b, openapi: pages.ts): what
 * one operation needs, and on the overview what the API needs by default and the schemes it defines,
 * each scheme said once.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { code, inline } from './schema';

type Schemes = Record<string, OpenAPIV3.SecuritySchemeObject>;
type Requirement = OpenAPIV3.SecurityRequirementObject;

/** One scheme as a list item's text: name, how it is sent, the scopes asked for, its description. */
function schemeText(name: string, scheme: OpenAPIV3.SecuritySchemeObject | undefined, scopes: string[] = []): string {
  if (!scheme) return code(name);
  const how = scheme.type === 'apiKey' ? `API key in the ${code(scheme.name)} ${scheme.in}` : scheme.type === 'http' ? `HTTP ${scheme.scheme}${scheme.bearerFormat ? ` (${scheme.bearerFormat})` : ''}` : scheme.type;
  const asked = scopes.length > 0 ? ` with scopes ${scopes.map(code).join(', ')}` : '';
  return `**${inline(name)}**: ${how}${asked}${scheme.description ? ` — ${inline(scheme.description)}` : ''}`;
}

/**
 * One requirement, any one of several, as list lines: a single scheme is one item; several, which a
 * call must all send, are an item "All of these together:" with one item each below it, so no
 * scheme's sentences run into the next one's.
 */
function requirementLines(requirement: Requirement, schemes: Schemes): string[] {
  const names = Object.keys(requirement);
  if (names.length === 0) return ['- No authentication.'];
  if (names.length === 1) return [`- ${schemeText(names[0]!, schemes[names[0]!], requirement[names[0]!])}`];
  return ['- All of these together:', ...names.map((name) => `  - ${schemeText(name, schemes[name], requirement[name])}`)];
}

/**
 * A list of requirements (OpenAPI `security`: any one is enough) as list lines, and what a lead-in
 * says of them: "any one of these", "all of these together" (one requirement of several schemes,
 * listed one an item), or nothing (one scheme).
 */
function requirementList(requirements: Requirement[], schemes: Schemes): { lead?: string; items: string[] } {
  const names = requirements.length === 1 ? Object.keys(requirements[0]!) : [];
  if (names.length > 1) return { lead: 'all of these together', items: names.map((name) => `- ${schemeText(name, schemes[name], requirements[0]![name])}`) };
  if (requirements.length === 1) return { items: requirementLines(requirements[0]!, schemes) };
  return { lead: 'any one of these', items: requirements.flatMap((requirement) => requirementLines(requirement, schemes)) };
}

/** An operation page's "Security": what a call of it must send. */
export function operationSecurityLines(requirements: Requirement[], schemes: Schemes): string[] {
  if (requirements.length === 0) return ['No authentication: anyone may call this operation.'];
  const { lead, items } = requirementList(requirements, schemes);
  return lead ? [`${lead[0]!.toUpperCase()}${lead.slice(1)}:`, '', ...items] : items;
}

/** True when a call may be made without credentials: no requirement, or an empty one among them. */
function open(requirements: Requirement[]): boolean {
  return requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0);
}

/** "3 of the 7 operations need" / "the one operation needs" / "all 7 operations need". */
function share(count: number, total: number, verb: string): string {
  const subject = count === total ? (total === 1 ? 'the one operation' : `all ${total} operations`) : `${count} of the ${total} operations`;
  return `${subject} ${verb}${count === 1 ? 's' : ''}`;
}

/**
 * The overview's "Security schemes": what an operation needs unless its page says otherwise (the
 * spec's `security`) and how many depart from that, then every other scheme the API defines, each
 * once. `operations` are the security requirements that apply to each operation the reader calls.
 * No lines when there is nothing to say (no operation, no scheme).
 */
export function overviewSecurityLines(defaults: Requirement[], operations: Requirement[][], schemes: Schemes): string[] {
  const lines: string[] = [];
  const total = operations.length;
  const secured = operations.filter((requirements) => !open(requirements)).length;
  // `security: [{}]` says no authentication by default, as no `security` does.
  if (defaults.every((requirement) => Object.keys(requirement).length === 0)) {
    if (total > 0) lines.push(secured === 0 ? 'No operation needs authentication.' : `No authentication by default: ${share(secured, total, 'need')} it, as ${secured === 1 ? 'its page says' : 'their pages say'}.`, '');
  } else {
    const { lead, items } = requirementList(defaults, schemes);
    lines.push(`Unless its page says otherwise, an operation needs ${lead ?? 'this'}:`, '', ...items, '');
    const without = total - secured;
    if (without > 0 && !open(defaults)) lines.push(`${share(without, total, 'need')} no authentication.`, '');
  }
  const shown = new Set(defaults.flatMap((requirement) => Object.keys(requirement)));
  const others = Object.entries(schemes).filter(([name]) => !shown.has(name));
  if (others.length > 0) lines.push(shown.size > 0 ? 'Other schemes this API defines:' : 'Schemes this API defines:', '', ...others.map(([name, scheme]) => `- ${schemeText(name, scheme)}`), '');
  return lines;
}
