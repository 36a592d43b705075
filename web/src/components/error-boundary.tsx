import { Component, type ReactNode } from 'react';

/**
 * Shows `fallback` instead of `children` once they throw while rendering: what a route's
 * `ErrorBoundary` does, for the landing page, which is hydrated without the router. React reports
 * the caught error itself (`onCaughtError`); nothing of it reaches the page.
 */
export class ErrorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
