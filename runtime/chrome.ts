/** Delegated listeners for the chrome: colour mode, copy buttons, announcement close, mobile drawer. */
import type { HydrationData } from './manifest';

/** Installs the document-level listeners once. */
export function installChrome(data: HydrationData): void {
  const root = document.documentElement;
  const keys = data.site.storageKeys;
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    if (target.closest('[data-theme-toggle]')) {
      const next = root.getAttribute('data-theme') === 'light' ? 'dark' : 'light';
      root.setAttribute('data-theme', next);
      store(keys.theme, next);
      return;
    }
    const copy = target.closest<HTMLButtonElement>('[data-copy]');
    if (copy) {
      const code = copy.parentElement?.querySelector('pre')?.textContent ?? '';
      void navigator.clipboard?.writeText(code).then(() => {
        copy.textContent = 'Copied';
        setTimeout(() => (copy.textContent = 'Copy'), 1500);
      });
      return;
    }
    if (target.closest('[data-announcement-close]') && data.site.announcement) {
      root.setAttribute('data-announcement-dismissed', '');
      store(keys.announcement, data.site.announcement.id);
      return;
    }
    const toggle = target.closest('[data-drawer-toggle]');
    if (toggle) {
      const open = root.toggleAttribute('data-drawer-open');
      toggle.setAttribute('aria-expanded', String(open));
    }
  });
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or full storage: the choice lasts for this page only.
  }
}
