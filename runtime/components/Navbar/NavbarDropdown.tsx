import { useEffect, useRef, useState, type JSX } from 'react';

/** One entry of a navbar dropdown. */
export interface DropdownEntry {
  label: string;
  href: string;
  /** The entry in use (marked, and choosing it again does not navigate). */
  active: boolean;
  /** Runs when the entry is chosen. */
  onSelect?: () => void;
}

export interface NavbarDropdownProps {
  /** Accessible name of the toggle, e.g. `Version`. */
  name: string;
  /** The current choice: the toggle's accessible name ends with it. */
  label: string;
  /** Shorter text shown on the toggle (e.g. `en-GB` for `English (en-GB)`); the label by default. */
  shortLabel?: string;
  entries: DropdownEntry[];
}

/** A navbar menu (locale, version): opens on click, closes on a choice, Escape or a click elsewhere. */
export function NavbarDropdown({ name, label, shortLabel, entries }: NavbarDropdownProps): JSX.Element {
  const [open, setOpen] = useState(false);
  // The accessible name starts with what the toggle shows, so speech input ("click en-GB") finds it
  // (WCAG 2.5.3): `Language: en-GB (English)` for a toggle showing `en-GB` of `English (en-GB)`.
  const spoken = shortLabel ? `${shortLabel} (${label.replace(`(${shortLabel})`, '').trim() || label})` : label;
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: Event): void => {
      if (!(event.target instanceof Node) || !root.current?.contains(event.target)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div className="dropdown" ref={root}>
      <button type="button" className="navbar-link dropdown-toggle" aria-haspopup="true" aria-expanded={open} aria-label={`${name}: ${spoken}`} title={`${name}: ${label}`} onClick={() => setOpen(!open)}>
        {shortLabel ?? label}
      </button>
      {open ? (
        <ul className="dropdown-menu" aria-label={name}>
          {entries.map((entry) => (
            <li key={entry.href + entry.label}>
              <a
                className={entry.active ? 'dropdown-link active' : 'dropdown-link'}
                href={entry.href}
                aria-current={entry.active ? 'true' : undefined}
                onClick={(event) => {
                  entry.onSelect?.();
                  if (entry.active) event.preventDefault();
                  setOpen(false);
                }}
              >
                {entry.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
