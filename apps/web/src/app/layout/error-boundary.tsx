/**
 * The error boundary of the shared layout (product §2, §8): an unhandled render error shows
 * 'Something went wrong' with 'Try again' (re-renders the page, resetting failed queries) and
 * 'Refresh page', and toasts 'An unexpected error occurred. Please try again.' once.
 */
import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { ErrorFallback } from '@/components/ui/error-fallback';
import { pageReload } from '@/lib/page-reload';

export const UNEXPECTED_ERROR_TOAST = 'An unexpected error occurred. Please try again.';

interface Props {
  children: ReactNode;
  onReset?: () => void;
}

class Boundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    toast.error(UNEXPECTED_ERROR_TOAST, { id: 'unexpected-error' });
    console.error(error, info.componentStack);
  }

  reset = () => {
    this.props.onReset?.();
    this.setState({ error: null });
  };

  override render() {
    return this.state.error ? <ErrorFallback onRetry={this.reset} /> : this.props.children;
  }
}

/** Catches render errors of its children (the current page). */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  return <QueryErrorResetBoundary>{({ reset }) => <Boundary onReset={reset}>{children}</Boundary>}</QueryErrorResetBoundary>;
}

/**
 * Around the whole route table: errors outside the page boundary (in the layout itself) show the
 * same fallback, whose 'Try again' reloads the page, and the same toast (§8).
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    toast.error(UNEXPECTED_ERROR_TOAST, { id: 'unexpected-error' });
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error ? <ErrorFallback onRetry={() => pageReload.reload()} /> : this.props.children;
  }
}
