// Keeps one broken pane from blanking the whole app. Contacts write what they like, so a record
// the renderer cannot draw must cost at most the pane that shows it: the list, the open
// conversation and the app shell each have their own boundary, and the agent can try again.
import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';

interface Props {
  /** What failed, for the agent: "this conversation", "the conversation list". */
  what: string;
  children: ReactNode;
  /** A change of key (e.g. the conversation id) starts the pane afresh. */
  resetKey?: unknown;
}

interface State {
  failed: boolean;
  resetKey: unknown;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    // The message only: record contents stay out of the console.
    console.error(`Could not show ${this.props.what}: ${error.name}: ${error.message}`, info.componentStack?.split('\n', 3).join('\n'));
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="pane-error" role="alert" aria-label={`${this.props.what} could not be shown`}>
        <p>Something in {this.props.what} could not be shown.</p>
        <button type="button" onClick={() => this.setState({ failed: false })}>
          Try again
        </button>
      </section>
    );
  }
}
