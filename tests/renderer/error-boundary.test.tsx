// A record the renderer cannot draw costs at most its pane, never the whole app.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Attachment } from '../../shared/api/records';
import { ErrorBoundary } from '../../renderer/src/components/ErrorBoundary';
import { attachmentName } from '../../renderer/src/components/MessageBubble';

afterEach(() => vi.restoreAllMocks());

const attachment = (data_url: string): Attachment => ({ id: 1, file_type: 'file', extension: 'pdf', data_url });

describe('attachment names', () => {
  it('decode a well-formed name and show a malformed one as sent, without throwing', () => {
    expect(attachmentName(attachment('https://files.example/1/r%C3%A9sum%C3%A9.pdf'))).toBe('résumé.pdf');
    expect(attachmentName(attachment('https://x/a%E0%A4%A'))).toBe('a%E0%A4%A');
    expect(attachmentName(attachment('https://x/%'))).toBe('%');
    expect(attachmentName({ id: 2, file_type: 'image', extension: 'png', data_url: null })).toBe('image.png');
  });
});

function Bomb({ armed }: { armed: boolean }) {
  if (armed) throw new Error('cannot draw this record');
  return <p>drawn</p>;
}

describe('error boundary', () => {
  it('shows what failed in place of the pane, and the pane comes back on retry or a new key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rerender } = render(
      <main>
        <ErrorBoundary what="this conversation" resetKey={1}>
          <Bomb armed />
        </ErrorBoundary>
        <p>the rest of the app</p>
      </main>,
    );
    expect(screen.getByRole('alert', { name: 'this conversation could not be shown' })).toBeTruthy();
    expect(screen.getByText('the rest of the app')).toBeTruthy();

    rerender(
      <main>
        <ErrorBoundary what="this conversation" resetKey={2}>
          <Bomb armed={false} />
        </ErrorBoundary>
      </main>,
    );
    expect(screen.getByText('drawn')).toBeTruthy();

    let armed = true;
    const Flaky = () => <Bomb armed={armed} />;
    rerender(
      <ErrorBoundary what="the conversation list" resetKey={3}>
        <Flaky />
      </ErrorBoundary>,
    );
    rerender(
      <ErrorBoundary what="the conversation list" resetKey={4}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    armed = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('drawn')).toBeTruthy();
  });
});
