/**
 * Copy buttons on code blocks. Page bodies travel as HTML, so one delegated listener serves every
 * block of every page, whichever way it arrived.
 */

/** How long the button says `Copied`. */
const COPIED_MS = 1500;

/** Installs the document-level listener once. */
export function installCopyButtons(): void {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('[data-copy]') : null;
    if (!button) return;
    const pre = button.parentElement?.querySelector('pre');
    const code = pre?.textContent ?? '';
    const copying = navigator.clipboard ? navigator.clipboard.writeText(code) : Promise.reject(new Error('no clipboard'));
    void copying.then(
      () => {
        button.textContent = 'Copied';
        setTimeout(() => (button.textContent = 'Copy'), COPIED_MS);
      },
      () => {
        // Without clipboard access (an insecure origin, a denied permission), select the code instead.
        if (pre) getSelection()?.selectAllChildren(pre);
        button.textContent = 'Press Ctrl+C';
        setTimeout(() => (button.textContent = 'Copy'), COPIED_MS);
      },
    );
  });
}
