import { useEffect, useId, useRef, useState, type JSX, type KeyboardEvent as ReactKeyboardEvent } from 'react';

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

/**
 * A navbar menu (locale, version), the disclosure pattern of WAI-ARIA's navigation menus: a button
 * that shows a list of links. Opens on click (or ArrowDown, at its first link); the arrow keys, Home
 * and End move between its links; it closes on a choice, on Escape (focus back on the button), on a
 * click elsewhere and when focus leaves it (Tab past its last link).
 */
export function NavbarDropdown({ name, label, shortLabel, entries }: NavbarDropdownProps): JSX.Element {
  const [open, setOpen] = useState(false);
  // The accessible name starts with what the toggle shows, so speech input ("click en-GB") finds it
  // (WCAG 2.5.3): `Language: en-GB (English)` for a toggle showing `en-GB` of `English (en-GB)`.
  const spoken = shortLabel ? `${shortLabel} (${label.replace(`(${shortLabel})`, '').trim() || label})` : label;
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  /** Set by ArrowDown on the closed toggle: the first link takes focus once the list is there. */
  const focusFirst = useRef(false);
  /** A press is under way: focus moving with it is the click's to handle, not a reason to close. */
  const pressing = useRef(false);
  const links = (): HTMLAnchorElement[] => [...(root.current?.querySelectorAll<HTMLAnchorElement>('.dropdown-link') ?? [])];
  useEffect(() => {
    if (!open) return;
    if (focusFirst.current) links()[0]?.focus();
    focusFirst.current = false;
    // On the click, not the press: in the drawer the list is in the page's flow, and closing it as the
    // button is pressed moved the next button away before the press was released (no click landed).
    const onPointer = (event: Event): void => {
      pressing.current = event.type === 'pointerdown';
      if (event.type === 'click' && (!(event.target instanceof Node) || !root.current?.contains(event.target))) setOpen(false);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      // Heard first (capture): a drawer around the menu leaves this Escape to it and stays open.
      event.preventDefault();
      // Focus in the list goes back to the button, which the list belongs to.
      if (root.current?.contains(document.activeElement)) toggle.current?.focus();
      setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('click', onPointer, true);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('click', onPointer, true);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);
  const onKeyDown = (event: ReactKeyboardEvent): void => {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    const to = { ArrowDown: at + 1, ArrowUp: at <= 0 ? all.length - 1 : at - 1, Home: 0, End: all.length - 1 }[event.key];
    // Closed, only ArrowDown is the menu's (Home and End still scroll the page).
    if (to === undefined || (!open && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    if (!open) {
      focusFirst.current = true;
      setOpen(true);
      return;
    }
    all[to % Math.max(all.length, 1)]?.focus();
  };
  return (
    <div
      className="dropdown"
      ref={root}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        // Focus went somewhere outside the menu by the keyboard (Tab past its last link); a click elsewhere closes it on its own.
        if (!pressing.current && event.relatedTarget instanceof Node && !event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <button type="button" ref={toggle} className="navbar-link dropdown-toggle" aria-expanded={open} aria-controls={open ? menuId : undefined} aria-label={`${name}: ${spoken}`} title={`${name}: ${label}`} onClick={() => setOpen(!open)}>
        {shortLabel ?? label}
      </button>
      {open ? (
        <ul className="dropdown-menu" id={menuId} aria-label={name}>
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
