/** Compiles the CLI when a source is newer than the compiled copy; resolves to the entry's file URL. */
export function ensureCliBuilt(): Promise<string>;
