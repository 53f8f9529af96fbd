import type { JSX } from 'react';
import './footer.css';

/** Site footer: the site's title and tagline, then the copyright notice. */
export function Footer({ title, tagline, copyright }: { title: string; tagline: string; copyright: string }): JSX.Element {
  return (
    <footer className="footer">
      <p className="footer-tagline">
        <span className="footer-title">{title}</span>
        {` · ${tagline}`}
      </p>
      <p className="footer-copyright">{copyright}</p>
    </footer>
  );
}
