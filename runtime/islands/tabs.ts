/**
 * Tab sets: a click selects a tab in every set of the page that has it, and the choice is remembered
 * (localStorage, and `html[data-code-tab]`, which the stylesheet and the head script use) so every
 * page opens on the reader's language. The keyboard follows WAI-ARIA's tabs pattern: Tab reaches the
 * selected tab of a set only, and the arrow keys, Home and End select another (and focus it).
 */
let installed = false;

/** Shows `label` in every tab set below `root` that has it. */
export function selectTab(root: ParentNode, label: string): void {
  for (const set of root.querySelectorAll<HTMLElement>('.tabs')) {
    if (!set.querySelector(`:scope > [data-tab="${CSS.escape(label)}"]`)) continue;
    set.setAttribute('data-selected', label);
    for (const element of set.querySelectorAll<HTMLElement>(':scope > .tab-list > [data-tab], :scope > .tab-panel')) {
      const on = element.getAttribute('data-tab') === label;
      if (element.classList.contains('tab-panel')) element.toggleAttribute('data-selected', on);
      else {
        element.setAttribute('aria-selected', String(on));
        element.tabIndex = on ? 0 : -1;
      }
    }
  }
}

/** Applies the remembered choice to the page and starts listening for clicks (once). */
export function activateTabs(root: ParentNode, storageKey: string): void {
  const remembered = document.documentElement.getAttribute('data-code-tab');
  if (remembered) selectTab(root, remembered);
  if (installed) return;
  installed = true;
  document.addEventListener('click', (event) => {
    const tab = event.target instanceof Element ? event.target.closest<HTMLElement>('.tab[data-tab]') : null;
    const label = tab?.getAttribute('data-tab');
    if (!label) return;
    document.documentElement.setAttribute('data-code-tab', label);
    // Not `storage.ts`: sharing it with the entry would cost every page an extra chunk request.
    try {
      localStorage.setItem(storageKey, label);
    } catch {
      // The choice lasts for this page only.
    }
    selectTab(document, label);
  });
  document.addEventListener('keydown', (event) => {
    const tab = event.target instanceof Element ? event.target.closest<HTMLElement>('.tab[data-tab]') : null;
    const tabs = [...(tab?.parentElement?.querySelectorAll<HTMLElement>(':scope > .tab[data-tab]') ?? [])];
    const at = tab ? tabs.indexOf(tab) : -1;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1 + tabs.length, Home: 0, End: tabs.length - 1 }[event.key];
    if (at === -1 || to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = tabs[to % tabs.length]!;
    next.click();
    next.focus();
  });
}
