/** The lazily loaded islands: one import site each, so esbuild splits each into its own chunk. */

/** The mermaid diagram renderer (mermaid itself is the heaviest dependency of the runtime). */
export function loadMermaid(): Promise<typeof import('./mermaid')> {
  return import('./mermaid');
}

/** Tab sets (API code samples): only pages with one load it. */
export function loadTabs(): Promise<typeof import('./tabs')> {
  return import('./tabs');
}
