/** What the main column shows instead of a page: while it loads, when it failed to load, when it crashed. */
import { Component, type ErrorInfo, type JSX, type ReactNode } from 'react';
import './page-state.css';

/** Heading of the crash screen (spec §8). */
export const CRASH_HEADING = 'This page crashed';

/** The loading animation, shown once a navigation takes over 200 ms and while a retry runs. */
export function PageLoading(): JSX.Element {
  return (
    <main className="doc-main page-state" id="main" aria-busy="true">
      <div className="page-loading" role="status">
        <span className="sr-only">Loading…</span>
        <span className="loading-line loading-title" aria-hidden="true" />
        <span className="loading-line" aria-hidden="true" />
        <span className="loading-line" aria-hidden="true" />
        <span className="loading-line loading-short" aria-hidden="true" />
      </div>
    </main>
  );
}

/** The box the load error, the crash screen and a login screen that did not load share: heading, error text, one button. */
export function ProblemBox({ heading, message, action, onAction }: { heading: string; message: string; action: string; onAction: () => void }): JSX.Element {
  return (
    <div className="page-problem" role="alert">
      <h1>{heading}</h1>
      <p className="page-problem-text">{message}</p>
      <button type="button" className="button" onClick={onAction}>
        {action}
      </button>
    </div>
  );
}

/** `ProblemBox` in the main column. */
function PageProblem(props: Parameters<typeof ProblemBox>[0]): JSX.Element {
  return (
    <main className="doc-main page-state" id="main">
      <ProblemBox {...props} />
    </main>
  );
}

/** A page whose data could not be loaded: the error text and a `Retry` button (spec §8). */
export function PageLoadError({ message, onRetry }: { message: string; onRetry: () => void }): JSX.Element {
  return <PageProblem heading="This page could not be loaded" message={message} action="Retry" onAction={onRetry} />;
}

interface CrashBoundaryProps {
  children: ReactNode;
  /** Loads the page again (fresh data) and so replaces this boundary. */
  onRetry: () => void;
}

/**
 * Catches an error while rendering the page: `This page crashed` and `Try again`, with the chrome
 * around it still working. The app keys the boundary by view, so a new page starts without the error.
 */
export class CrashBoundary extends Component<CrashBoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // React reports the error too; the component stack says which part of the page threw.
    console.warn('docs: the page crashed while rendering', error.message, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error) return <PageProblem heading={CRASH_HEADING} message={this.state.error.message} action="Try again" onAction={this.props.onRetry} />;
    return this.props.children;
  }
}
