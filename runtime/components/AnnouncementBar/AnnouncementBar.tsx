import type { JSX } from 'react';
import type { Announcement } from '../../manifest';
import { writeStorage } from '../../storage';
import './announcement-bar.css';

export interface AnnouncementBarProps {
  announcement: Announcement;
  /** localStorage key holding the id of the dismissed announcement. */
  storageKey: string;
}

/**
 * The bar above the navbar. A dismissal stores the announcement's id; the head script hides the bar
 * before paint while the stored id matches, so a new id shows it again and a dismissed one never flashes.
 */
export function AnnouncementBar({ announcement, storageKey }: AnnouncementBarProps): JSX.Element {
  const dismiss = (): void => {
    document.documentElement.setAttribute('data-announcement-dismissed', '');
    writeStorage(storageKey, announcement.id);
  };
  return (
    <div className="announcement" role="region" aria-label="Announcement" data-announcement-id={announcement.id} style={{ backgroundColor: announcement.backgroundColor, color: announcement.textColor }}>
      <div className="announcement-content" dangerouslySetInnerHTML={{ __html: announcement.content }} />
      {announcement.isCloseable ? (
        <button type="button" className="announcement-close" aria-label="Close" onClick={dismiss}>
          ×
        </button>
      ) : null}
    </div>
  );
}
