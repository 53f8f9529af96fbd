/**
 * What the reader types while the search dialog's code loads (a first `Ctrl+K`, some 300 ms on a slow
 * link): the stand-in dialog (SearchButton.tsx) keeps it here and the dialog takes it up, so typing at
 * once after `Ctrl+K` loses no letter ("kubernetes" arrived as "rnetes"). The keys pressed before
 * either field has the focus (React has not drawn it yet: a busy or slow device) are kept too
 * (`catchKeys`).
 */
let typed = '';

/** What the dialog's field and its stand-in's have alike: the reader sees one field, before and after the code loads. */
export const FIELD = {
  type: 'search',
  role: 'combobox',
  'aria-label': 'Search the documentation',
  placeholder: 'Search pages, headings and API operations',
  autoComplete: 'off',
  spellCheck: false,
} as const;

/** Keeps what the stand-in's field holds. */
export function keepTyped(value: string): void {
  typed = value;
}

/** What was typed, left in place (a render may run twice). */
export function peekTyped(): string {
  return typed;
}

/** What was typed, taken: the next dialog starts empty. */
export function takeTyped(): string {
  const value = typed;
  typed = '';
  return value;
}

/**
 * Keeps the letters typed from now until a search field has the focus (the stand-in's or the
 * dialog's, drawn a moment after the `Ctrl+K` that opens them), which then starts with them. Stops by
 * itself once a field has the focus; the function returned stops it sooner (the dialog closed).
 */
export function catchKeys(): () => void {
  const inField = (): boolean => document.activeElement instanceof HTMLInputElement && document.activeElement.closest('.search-dialog') !== null;
  const onKey = (event: KeyboardEvent): void => {
    if (inField()) return stop();
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key.length === 1) typed += event.key;
    else if (event.key === 'Backspace') typed = typed.slice(0, -1);
    else return;
    event.preventDefault();
  };
  const stop = (): void => {
    document.removeEventListener('keydown', onKey, true);
    document.removeEventListener('focusin', onFocus, true);
  };
  const onFocus = (): void => {
    if (inField()) stop();
  };
  document.addEventListener('keydown', onKey, true);
  document.addEventListener('focusin', onFocus, true);
  return stop;
}
