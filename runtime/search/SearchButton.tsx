import { useEffect, useRef, useState, type JSX } from 'react';
import { createPortal } from 'react-dom';
// Imported here, not by the lazy chunk: esbuild would split it into a stylesheet nothing links.
import './search.css';
import { useCode } from '../use-code';
import { askEntryEarly } from './early-entry';
import { SearchIcon } from './SearchIcon';
import { catchKeys, FIELD, keepTyped, peekTyped, takeTyped } from './typed';

/** Event the drawer's search button sends to open the dialog. */
export const OPEN_SEARCH_EVENT = 'docs:open-search';

/** The dialog, its engine and the stemmers are a chunk of their own: nothing of search loads before a reader opens it. */
const loadDialog = (): Promise<typeof import('./SearchDialog')> => import('./SearchDialog').then((code) => ((dialogIn = true), code));
/** True once the dialog's code is in: its engine then asks for the index itself as it opens. */
let dialogIn = false;

/**
 * The dialog as it first shows, while its code loads: its field takes focus and keeps what the reader
 * types (typed.ts), which the dialog then searches for; Esc or the backdrop closes it.
 */
function LoadingDialog({ onClose, failed }: { onClose: () => void; failed: boolean }): JSX.Element {
  return (
    <div className="search-root" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <div className="search-backdrop" onClick={onClose} />
      <div className="search-dialog" role="dialog" aria-modal="true" aria-label="Search the documentation">
        <div className="search-field">
          <SearchIcon />
          <input {...FIELD} aria-expanded={false} autoFocus onFocus={(event) => takeUp(event.currentTarget)} onChange={(event) => keepTyped(event.target.value)} />
        </div>
        <div className="search-status" role="status">
          {failed ? <p>Search is not available: its code could not be loaded (are you offline, or was the site just updated?); reload the page to try again.</p> : null}
        </div>
      </div>
    </div>
  );
}

/** Gives the stand-in's field, as it takes the focus, what was typed before it had it, the caret after it. */
function takeUp(field: HTMLInputElement): void {
  field.value = peekTyped();
  field.setSelectionRange(field.value.length, field.value.length);
}

/** True when a key press belongs to a field the reader is typing in. */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** The navbar's search button; the dialog also opens on `Ctrl+K` / `⌘K`, on `/` outside a text field, and from the drawer. */
export function SearchButton(): JSX.Element {
  const keys = useRef<HTMLElement>(null);
  // While open: the element to give focus back to.
  const [returnTo, setReturnTo] = useState<Element | null>();
  const open = returnTo !== undefined;
  // Shown the moment it is in; a load that failed is tried again at the next opening.
  const dialog = useCode(loadDialog, open);
  // The index's entry point is asked for beside the dialog's code, not after it (early-entry.ts).
  useEffect(() => {
    if (open && !dialogIn) askEntryEarly();
  }, [open]);
  /** Stops keeping the keys typed before the dialog's field has the focus (typed.ts `catchKeys`). */
  const catching = useRef<() => void>(undefined);
  useEffect(() => {
    // After hydration, so the server's `Ctrl K` and the first render agree.
    if (keys.current && /Mac|iP(hone|ad)/.test(navigator.platform)) keys.current.textContent = '⌘ K';
    const open = (): void => setReturnTo(document.activeElement);
    const onKey = (event: KeyboardEvent): void => {
      const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
      if ((!plain && !event.altKey && event.key.toLowerCase() === 'k') || (plain && event.key === '/' && !typing(event.target))) {
        event.preventDefault();
        // The letters typed right after, before the dialog's field is drawn and focused, go into it.
        catching.current?.();
        catching.current = catchKeys();
        open();
      }
    };
    document.addEventListener('keydown', onKey);
    addEventListener(OPEN_SEARCH_EVENT, open);
    return () => {
      catching.current?.();
      document.removeEventListener('keydown', onKey);
      removeEventListener(OPEN_SEARCH_EVENT, open);
    };
  }, []);
  const close = (chosen?: boolean): void => {
    // What was typed into a dialog closed before its code came is not the next dialog's.
    catching.current?.();
    takeTyped();
    setReturnTo(undefined);
    // A result opened: the page takes the focus, at the section opened (router/focus.ts), as after any link.
    if (chosen) return;
    // The drawer that opened it is gone: then the navbar's button.
    (returnTo instanceof HTMLElement && returnTo.isConnected && returnTo !== document.body ? returnTo : document.querySelector<HTMLElement>('.navbar .search-button'))?.focus();
  };
  // The portal is the button's sibling: React events bubble along its tree, and a click in the dialog must not reach the button.
  return (
    <>
      <button type="button" className="search-button" aria-haspopup="dialog" aria-keyshortcuts="Control+K Meta+K /" onClick={(event) => setReturnTo(event.currentTarget)}>
        <SearchIcon />
        <span className="search-button-label">Search</span>
        <kbd className="search-button-keys" ref={keys}>
          Ctrl K
        </kbd>
      </button>
      {open ? createPortal(dialog && 'code' in dialog ? <dialog.code.SearchDialog onClose={close} /> : <LoadingDialog onClose={() => close()} failed={dialog !== undefined} />, document.body) : null}
    </>
  );
}
