import { useEffect, useState, type JSX } from 'react';
import type { TocEntry } from '../../manifest';

/** Headings whose top is above this line (below the sticky navbar) count as read. */
const ACTIVE_LINE_PX = 110;

/**
 * The heading the reader is at: the last one above the active line, the first before any is, and the
 * last one once the page is scrolled to its end (short final sections never reach the line).
 */
function useActiveHeading(entries: TocEntry[]): string | null {
  const [active, setActive] = useState<string | null>(null);
  useEffect(() => {
    if (entries.length === 0) return;
    let frame = 0;
    const update = (): void => {
      frame = 0;
      let current = entries[0]!.id;
      for (const entry of entries) {
        const heading = document.getElementById(entry.id);
        if (!heading) continue;
        if (heading.getBoundingClientRect().top > ACTIVE_LINE_PX) break;
        current = entry.id;
      }
      const end = document.documentElement;
      if (end.scrollTop > 0 && innerHeight + end.scrollTop >= end.scrollHeight - 2) current = entries[entries.length - 1]!.id;
      setActive(current);
    };
    const schedule = (): void => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    update();
    addEventListener('scroll', schedule, { passive: true });
    addEventListener('resize', schedule, { passive: true });
    // The page can change height without a scroll (an image arriving, a <details> opened): the reader
    // is then no longer at its end, or is again, and the headings have moved.
    const resizes = new ResizeObserver(schedule);
    resizes.observe(document.body);
    return () => {
      resizes.disconnect();
      cancelAnimationFrame(frame);
      removeEventListener('scroll', schedule);
      removeEventListener('resize', schedule);
    };
  }, [entries]);
  return active;
}

/** The page's table of contents (levels chosen at build time), following the reader's position. */
export function Toc({ entries }: { entries: TocEntry[] }): JSX.Element | null {
  const active = useActiveHeading(entries);
  if (entries.length === 0) return null;
  return (
    <nav className="toc" aria-label="On this page">
      <p className="toc-title">On this page</p>
      <ul className="toc-list">
        {entries.map((entry) => (
          <li key={entry.id} className={`toc-item toc-level-${entry.level}`}>
            <a className={entry.id === active ? 'toc-link active' : 'toc-link'} href={`#${entry.id}`} aria-current={entry.id === active ? 'location' : undefined}>
              {entry.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
