/** Compiles the CLI when a source is newer than the compiled copy; resolves to its folder. */
export function ensureCliBuilt(): Promise<string>;
/** Compiles the CLI when stale and runs it with its code cache: its entry, and what writes the cache (when it ran without one, or after a long run that compiled more). */
export function loadCli(): Promise<{ main: (args: string[]) => Promise<number>; save: () => void }>;
/** The text of @readme/openapi-parser's `Headers` check the compiled CLI asks after a cheaper one. */
export const PARSER_HEADERS_CHECK: string;
/** The text of mdast-util-from-markdown's compile loop that copies its context for every token, which the compiled CLI and worker replace. */
export const FROM_MARKDOWN_CONTEXT: string;
/** What the compiled CLI and worker hold instead: one copy of the context a document. */
export const FROM_MARKDOWN_ONE_CONTEXT: string;
/** The text of mermaid's `getConfig` the compiled worker replaces with a faster copy of the same result. */
export const MERMAID_GET_CONFIG: string;
/** Keeps V8's compiled code of the CLI on disk where Node can (22.1 and later); returns its folder, or undefined. */
export function enableCodeCache(): string | undefined;
/** A schema of @readme/openapi-parser compiled by Ajv: the class and options it was compiled with, the schema's text, Ajv's standalone code. */
export interface OpenapiValidator {
  classPath: string;
  options: string;
  schema: string;
  code: string;
}
/** Compiles the parser's OpenAPI 2.0, 3.0 and 3.1 schemas to Ajv's standalone code. */
export function openapiValidators(): Promise<OpenapiValidator[]>;
/** The esbuild plugin that hands the parser these validators (cli/build/openapi/ajv-ahead.ts); with `compileMissing` false, a schema not carried throws. */
export function sharedAjv(validators: OpenapiValidator[], compileMissing?: boolean): import('esbuild').Plugin;
