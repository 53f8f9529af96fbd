import type { JSX } from 'react';
import type { Announcement } from '../../manifest';
import './announcement-bar.css';

/** The dismissible bar above the navbar; the head script hides it before paint once dismissed. */
export function AnnouncementBar({ announcement }: { announcement: Announcement }): JSX.Element {
  return (
    <div className="announcement" role="banner" data-announcement-id={announcement.id} style={{ backgroundColor: announcement.backgroundColor, color: announcement.textColor }}>
      <div className="announcement-content" dangerouslySetInnerHTML={{ __html: announcement.content }} />
      {announcement.isCloseable ? (
        <button type="button" className="announcement-close" aria-label="Close" data-announcement-close="">
          ×
        </button>
      ) : null}
    </div>
  );
}
