import { useEffect, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { SearchEngine, type ExcerptPart, type SearchResult } from './engine';
import { takeEntry } from './early-entry';
import { SearchIcon } from './SearchIcon';
import { indexable, words } from './text';
import { FIELD, peekTyped, takeTyped } from './typed';

/** One engine per page load: shards and chunks fetched once are kept for the next query. */
let engine: SearchEngine | undefined;

function searchEngine(): SearchEngine {
  engine ??= new SearchEngine(async (url, fresh) => {
    // A request that never got an answer says only "Failed to fetch": said in words a reader can act on.
    // The entry point may have been asked for as the dialog opened (early-entry.ts).
    const response = await ((fresh ? takeEntry(url) : undefined) ?? fetch(url, { credentials: 'same-origin', cache: fresh ? 'no-cache' : 'default' })).catch(() => {
      throw new Error('the search index could not be reached (are you offline?); try again in a moment');
    });
    if (!response.ok) throw Object.assign(new Error(response.status === 401 ? 'your session has expired; reload the page to sign in again' : `the index answered ${response.status}`), { status: response.status });
    // A file cut short (a proxy, a deploy under way) is no JavaScript parser's business to explain.
    return (response.json() as Promise<unknown>).catch(() => {
      throw new Error('a file of the search index arrived damaged or cut short; reload the page to try again');
    });
  });
  return engine;
}

/**
 * What the reader can do when a query found nothing. When every word of it is one search leaves out:
 * the commonest words (`the`, `een`), or single letters (`C#`, `R`), each said as such.
 */
function emptyHint(query: string): string {
  const all = words(query);
  if (all.length === 0 || all.some(indexable)) return 'Check the spelling, or try fewer or other words.';
  return all.some((word) => word.length === 1 && !/\d/.test(word))
    ? 'Single letters are not searched for (C# and C++ are read as C): add a longer word.'
    : 'Words this common are not searched for: add a word that tells the pages apart.';
}

/** Text with the query's words marked. */
function marks(parts: ExcerptPart[]): ReactNode[] {
  return parts.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text));
}

/** Results shown at first, and added by each "More results". */
const PAGE = 8;

/**
 * `complete` is false while the first results are shown and the chunks of the others load; `shown` is
 * how many results are listed, and `results` holds one more when the index has more.
 */
type Status =
  | { kind: 'idle' }
  | { kind: 'searching' }
  | { kind: 'done'; query: string; results: SearchResult[]; shown: number; complete: boolean }
  | { kind: 'error'; message: string };

export interface SearchDialogProps {
  /** Closes the dialog; `chosen` when a result was opened (focus then goes where the reader went, not back). */
  onClose: (chosen?: boolean) => void;
}

/**
 * The search dialog: a combobox whose results (a listbox) update as the reader types. ↑/↓ choose,
 * Enter opens the chosen result by a client-side navigation (at its heading), Esc or the backdrop
 * closes. Focus stays inside while it is open.
 */
export function SearchDialog({ onClose }: SearchDialogProps): JSX.Element {
  // What the reader typed into the stand-in while this code loaded (SearchButton.tsx).
  const [query, setQuery] = useState(peekTyped);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const latest = useRef(0);

  useEffect(() => {
    searchEngine()
      .load()
      .catch((error: unknown) => setStatus({ kind: 'error', message: error instanceof Error ? error.message : String(error) }));
    void SearchEngine.prepare();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  /**
   * Searches for `text`, listing `limit` results (and asking for one more, to know whether to offer
   * more). `more`: the same query, longer, so the result the reader is on stays chosen.
   */
  const run = (text: string, limit = PAGE, more = false): void => {
    const serial = ++latest.current;
    // The search starts before React renders the keystroke, so its first fetch goes out at once.
    // The first results show as soon as their text is in; the list then only grows (engine.ts).
    let shown = more;
    const partial = (results: SearchResult[]): void => {
      if (serial !== latest.current) return;
      // Rendered at once, not in a later task: the engine asks for the excerpts' chunks right after.
      flushSync(() => {
        if (!shown) setActive(0);
        shown = true;
        setStatus({ kind: 'done', query: text, results, shown: limit, complete: false });
      });
    };
    const searching = text.trim() ? searchEngine().search(text, limit + 1, partial) : undefined;
    setQuery(text);
    if (!searching) {
      setStatus({ kind: 'idle' });
      return;
    }
    setStatus((before) => (before.kind === 'done' ? before : { kind: 'searching' }));
    searching.then(
      (results) => {
        if (serial !== latest.current) return;
        // A choice the reader made among the first results stands.
        if (!shown) setActive(0);
        setStatus({ kind: 'done', query: text, results, shown: limit, complete: true });
      },
      (error: unknown) => serial === latest.current && setStatus({ kind: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  };

  // The field takes the focus, and the words typed while the dialog loaded are searched for at once,
  // the caret after them: as the dialog replaces its stand-in, in the same task (a layout effect), so
  // no key comes between (one typed then went to the page: "kubernetes" arrived as "kubetes"), and
  // with what the stand-in held last (keys typed after this render began). The next keys go through onChange.
  useLayoutEffect(() => {
    const field = input.current;
    field?.focus();
    const typed = takeTyped();
    if (!typed || !field) return;
    field.value = typed;
    field.setSelectionRange(typed.length, typed.length);
    run(typed);
  }, []);

  const results = status.kind === 'done' ? status.results.slice(0, status.shown) : [];
  const hasMore = status.kind === 'done' && status.results.length > status.shown;
  /** The options: the results, then "More results" when there are more. */
  const options = results.length + (hasMore ? 1 : 0);
  const showMore = (): void => {
    if (status.kind !== 'done') return;
    input.current?.focus();
    run(status.query, status.shown + PAGE, true);
  };
  const open = (index: number): void => {
    dialog.current?.querySelector<HTMLAnchorElement>(`#search-option-${index}`)?.click();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options === 0) return;
      const next = (active + (event.key === 'ArrowDown' ? 1 : options - 1)) % options;
      setActive(next);
      dialog.current?.querySelector(`#search-option-${next}`)?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter' && options > 0) {
      event.preventDefault();
      open(active);
    } else if (event.key === 'Tab') {
      // Focus stays in the dialog: the field and the close button take turns (the options are chosen
      // with the arrow keys).
      const focusable = [...(dialog.current?.querySelectorAll<HTMLElement>('input, button:not([role="option"])') ?? [])];
      const at = focusable.indexOf(document.activeElement as HTMLElement);
      event.preventDefault();
      focusable[(at + (event.shiftKey ? focusable.length - 1 : 1)) % focusable.length]?.focus();
    }
  };

  return (
    <div className="search-root" onKeyDown={onKeyDown}>
      <div className="search-backdrop" onClick={() => onClose()} />
      <div className="search-dialog" role="dialog" aria-modal="true" aria-label="Search the documentation" ref={dialog}>
        <div className="search-field">
          <SearchIcon />
          <input
            ref={input}
            {...FIELD}
            aria-expanded={results.length > 0}
            aria-controls="search-results"
            aria-autocomplete="list"
            aria-activedescendant={results.length > 0 ? `search-option-${active}` : undefined}
            value={query}
            onChange={(event) => run(event.target.value)}
          />
          {/* The key that closes it where there is a keyboard; a word and a finger's room where there is none. */}
          <button type="button" className="search-close" onClick={() => onClose()}>
            <span className="search-close-key">Esc</span>
            <span className="search-close-word">Cancel</span>
            <span className="sr-only"> (close search)</span>
          </button>
        </div>
        {results.length > 0 ? (
        <ul className="search-results" id="search-results" role="listbox" aria-label="Results" data-query={status.kind === 'done' ? status.query : undefined} data-complete={status.kind === 'done' && status.complete ? '' : undefined}>
          {results.map((result, index) => {
            // A page's second result, under its first (rank.ts `together`): indented, its page's title
            // and path said (the option's name) but not shown again.
            const sub = results[index - 1]?.page.route === result.page.route;
            return (
            // The option is the link itself (an option may hold no other control); the item is only its frame.
            <li key={result.url} role="none" className={`search-result${sub ? ' search-result-sub' : ''}${index === active ? ' active' : ''}`} onMouseMove={() => index !== active && setActive(index)}>
              <a href={result.url} id={`search-option-${index}`} role="option" aria-selected={index === active} tabIndex={-1} onClick={() => onClose(true)}>
                <span className={sub ? 'search-result-title sr-only' : 'search-result-title'}>
                  {result.page.method ? <span className={`api-badge api-badge-${result.page.method}`}>{result.page.method.toUpperCase()}</span> : null}
                  <span>{marks(result.marked.title)}</span>
                </span>
                {result.page.method && !sub ? (
                  // An operation's path, which comes with its excerpt: its line is held until then.
                  <code className={result.marked.path ? 'search-result-endpoint' : 'search-result-endpoint search-result-pending'}>{result.marked.path ? marks(result.marked.path) : null}</code>
                ) : null}
                {sub && result.marked.heading ? (
                  // Under its page: the heading alone shows; the section is said.
                  <span className="search-result-path search-result-heading">
                    {result.page.section ? <span className="sr-only">{result.page.section} › </span> : null}
                    {marks(result.marked.heading)}
                  </span>
                ) : (
                  <span className="search-result-path">
                    {result.page.section}
                    {result.marked.heading ? (
                      <>
                        {result.page.section ? ' › ' : null}
                        {marks(result.marked.heading)}
                      </>
                    ) : null}
                  </span>
                )}
                {result.excerpt ? (
                  <span className="search-result-excerpt">{marks(result.excerpt)}</span>
                ) : (
                  // Its text is on its way (a first result shown from the index's shards alone).
                  <span className="search-result-excerpt search-result-pending" />
                )}
              </a>
            </li>
            );
          })}
          {hasMore ? (
            <li role="none" className={active === results.length ? 'search-result search-more active' : 'search-result search-more'} onMouseMove={() => active !== results.length && setActive(results.length)}>
              <button type="button" id={`search-option-${results.length}`} role="option" aria-selected={active === results.length} tabIndex={-1} onClick={showMore}>
                More results
              </button>
            </li>
          ) : null}
        </ul>
        ) : null}
        <div className="search-status" role="status">
          {status.kind === 'done' && results.length === 0 ? (
            <p>
              No results for “{status.query.trim()}”.{' '}
              <span className="search-hint">{emptyHint(status.query)}</span>
            </p>
          ) : status.kind === 'error' ? (
            <p>Search is not available: {status.message}.</p>
          ) : status.kind === 'idle' ? (
            <p className="search-hint">Find any page, heading or API operation, in English or Dutch.</p>
          ) : status.kind === 'done' && status.complete ? (
            <p className="sr-only">
              {hasMore ? `The first ${results.length} results; More results, after them, lists others` : `${results.length} result${results.length === 1 ? '' : 's'}`}
            </p>
          ) : null}
        </div>
        <div className="search-footer" aria-hidden="true">
          <span>
            <kbd>↑</kbd> <kbd>↓</kbd> to choose
          </span>
          <span>
            <kbd>Enter</kbd> to open
          </span>
          <span>
            <kbd>Esc</kbd> to close
          </span>
        </div>
      </div>
    </div>
  );
}
