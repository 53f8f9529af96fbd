/**
 * What the reader types while the search dialog's code loads (a first `Ctrl+K`, some 300 ms on a slow
 * link): the stand-in dialog (SearchButton.tsx) keeps it here and the dialog takes it up, so typing at
 * once after `Ctrl+K` loses no letter ("kubernetes" arrived as "rnetes").
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
