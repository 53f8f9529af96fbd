import type { JSX } from 'react';
import './progress-bar.css';

/** The thin bar at the top of the window while a slow navigation (over 200 ms) is under way. */
export function ProgressBar(): JSX.Element {
  return (
    <div className="progress-bar" role="progressbar" aria-label="Loading the page">
      <div className="progress-bar-fill" />
    </div>
  );
}
