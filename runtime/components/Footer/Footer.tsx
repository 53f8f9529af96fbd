import type { JSX } from 'react';
import './footer.css';

/** Site footer with the copyright notice. */
export function Footer({ copyright }: { copyright: string }): JSX.Element {
  return (
    <footer className="footer">
      <p className="footer-copyright">{copyright}</p>
    </footer>
  );
}
