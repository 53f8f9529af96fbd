/** Compiles the CLI when a source is newer than the compiled copy; resolves to the entry's file URL. */
export function ensureCliBuilt(): Promise<string>;
/** The text of mermaid's `getConfig` the compiled worker replaces with a faster copy of the same result. */
export const MERMAID_GET_CONFIG: string;
/** Keeps V8's compiled code of the CLI on disk where Node can (22.1 and later); returns its folder, or undefined. */
export function enableCodeCache(): string | undefined;
