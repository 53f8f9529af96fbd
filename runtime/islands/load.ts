/** The lazily loaded islands: one import site each, so esbuild splits each into its own chunk. */

/** The mermaid diagram renderer (mermaid itself is the heaviest dependency of the runtime). */
export function loadMermaid(): Promise<typeof import('./mermaid')> {
  return import('./mermaid');
}

/** Tab sets (API code samples): only pages with one load it. */
export function loadTabs(): Promise<typeof import('./tabs')> {
  return import('./tabs');
}

/**
 * Loads the tabs island and activates the tab sets below `root`. A tab clicked, or an arrow key pressed
 * on one, before the island is in (it comes after the page: a slow link, a busy device) is given to it
 * once it is: the reader's choice was lost. Returns what stops it when the page changes first.
 */
export function startTabs(root: ParentNode, storageKey: string): () => void {
  let early: Event | undefined;
  let stopped = false;
  const keep = (event: Event): void => void (event.target instanceof Element && event.target.closest('.tab[data-tab]') && (early = event));
  const stopKeeping = (): void => {
    document.removeEventListener('click', keep);
    document.removeEventListener('keydown', keep);
  };
  document.addEventListener('click', keep);
  document.addEventListener('keydown', keep);
  void loadTabs().then((tabs) => {
    stopKeeping();
    if (stopped) return;
    tabs.activateTabs(root, storageKey);
    early?.target?.dispatchEvent(early instanceof KeyboardEvent ? new KeyboardEvent('keydown', early) : new MouseEvent('click', { bubbles: true }));
  });
  return () => {
    stopped = true;
    stopKeeping();
  };
}
