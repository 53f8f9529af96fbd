/** Compiles the CLI when a source is newer than the compiled copy; resolves to the entry's file URL. */
export function ensureCliBuilt(): Promise<string>;
/** The text of mermaid's `getConfig` the compiled worker replaces with a faster copy of the same result. */
export const MERMAID_GET_CONFIG: string;
