/**
 * The inline `<head>` script: runs before first paint, so the chosen colour mode and a dismissed
 * announcement never flash. It is serialised into every page, so it must stay self-contained.
 */

/** The storage keys and defaults the head script needs. */
export interface HeadScriptOptions {
  themeKey: string;
  announcementKey: string;
  /** Id of the current announcement, if any. */
  announcementId?: string;
}

/** Runs in the browser before paint. */
export function applyBeforePaint(options: HeadScriptOptions): void {
  const root = document.documentElement;
  try {
    const theme = localStorage.getItem(options.themeKey);
    // Dark by default; the system preference is deliberately ignored (spec §2).
    root.setAttribute('data-theme', theme === 'light' ? 'light' : 'dark');
    if (options.announcementId !== undefined && localStorage.getItem(options.announcementKey) === options.announcementId) {
      root.setAttribute('data-announcement-dismissed', '');
    }
  } catch {
    root.setAttribute('data-theme', 'dark');
  }
}

/** The script's source: the function and its call, ready to put in a `<script>`. */
export function headScriptSource(options: HeadScriptOptions): string {
  return `(${applyBeforePaint.toString()})(${JSON.stringify(options)})`;
}
