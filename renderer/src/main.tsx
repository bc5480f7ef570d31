// First: starts the bridge's socket and the early read before the rest of the code is evaluated.
import { bridge } from './boot';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { askFrameOnInput } from './platform/frame-on-input';
import './styles.css';

// Main already retries transient failures with backoff; the renderer does not retry on top.
// networkMode 'always': main, not navigator.onLine, decides whether the service is reachable.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, networkMode: 'always', staleTime: 30_000 }, mutations: { networkMode: 'always' } },
});

const app = (
  <StrictMode>
    {bridge ? (
      <QueryClientProvider client={queryClient}>
        <ErrorBoundary what="the app">
          <App bridge={bridge} />
        </ErrorBoundary>
      </QueryClientProvider>
    ) : (
      <main className="sign-in">
        <p role="alert">This page needs its launch key. Open the address that `npm start` or `npm run web` printed.</p>
      </main>
    )}
  </StrictMode>
);
// Each key's and click's frame is asked for before the page handles it (platform/frame-on-input.ts).
askFrameOnInput(window);
const root = createRoot(document.getElementById('root')!);
// Rendered synchronously, with its effects: the app's first questions to main (who is signed in,
// which caches to delete) are then asked before the bridge's socket has opened, and go out right
// behind its hello (platform/web-transport.ts) instead of a round trip later.
flushSync(() => root.render(app));
