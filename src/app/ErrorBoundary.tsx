import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** Keeps a rendering bug from blanking the page: shows what failed, as text, with a way back. */
export class ErrorBoundary extends Component<{ where: string; children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Logged as a warning so the cause is findable without counting as a crash of the page.
    console.warn(`${this.props.where} failed to render:`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="notice notice-error" data-testid="render-error">
        <strong>{this.props.where} could not be drawn.</strong> {this.state.error.message || String(this.state.error)}{' '}
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
