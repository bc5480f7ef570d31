// A message's attachments as the bubble shows them, from what main answers (files.attachment):
// an image as a preview of a blob: URL, a PDF as a card with Open and Save, whatever main refused
// said in words; an unsent message's files by name and size with its upload progress.
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import type { AttachmentFile } from '../../shared/bridge/calls/files';
import type { Message } from '../../shared/api/records';
import { MessageBubble } from '../../renderer/src/components/MessageBubble';
import { localMessageId } from '../../renderer/src/model/intent';
import { pdfDocument, pngImage } from '../support/sample-files';
import { msg } from './fixtures';
import { renderWithSession } from './support/render';

beforeAll(() => {
  // jsdom has no object URLs: a counter stands in, so each answer's URL can be told apart.
  let n = 0;
  URL.createObjectURL ??= () => `blob:test/${++n}`;
  URL.revokeObjectURL ??= () => undefined;
});

/** A bridge that answers files.attachment from `answers` by attachment id and records what was asked. */
function filesBridge(answers: Record<number, AttachmentFile>) {
  const asked: unknown[] = [];
  const listeners = new Set<(p: unknown) => void>();
  const bridge = {
    call: async (name: string, input: { attachmentId: number }) => {
      if (name !== 'files.attachment') return new Promise(() => undefined);
      asked.push(input);
      return { ok: true, value: answers[input.attachmentId] };
    },
    on: (name: string, fn: (p: unknown) => void) => {
      if (name !== 'messages.uploadProgress') return () => undefined;
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  } as unknown as Bridge;
  return { bridge, asked, emit: (p: unknown) => listeners.forEach((fn) => fn(p)) };
}

const b64 = (b: Buffer) => b.toString('base64');

describe('attachments in a bubble', () => {
  it('asks main by ids, shows the image from a blob: URL, the PDF with Open and Save, and says what was refused', async () => {
    const png = pngImage(8, 8);
    const pdf = pdfDocument();
    const { bridge, asked } = filesBridge({
      1: { status: 'ok', kind: 'image', mime: 'image/png', size: png.length, data: b64(png) },
      2: { status: 'ok', kind: 'pdf', mime: 'application/pdf', size: pdf.length, data: b64(pdf) },
      3: { status: 'refused', reason: 'other_host' },
      4: { status: 'refused', reason: 'program' },
    });
    const m: Message = msg(40, 7, {
      attachments: [
        { id: 1, file_type: 'image', data_url: 'https://service.test/a.png', fallback_title: 'shot.png' },
        { id: 2, file_type: 'file', data_url: 'https://service.test/i.pdf', fallback_title: 'invoice.pdf' },
        { id: 3, file_type: 'image', data_url: 'https://elsewhere.example/x.png', fallback_title: 'far.png' },
        { id: 4, file_type: 'file', data_url: 'https://service.test/setup.exe', fallback_title: 'setup.exe' },
      ],
    });
    renderWithSession(<MessageBubble message={m} />, { bridge });
    const list = screen.getByRole('list', { name: 'Attachments' });
    await waitFor(() => expect(within(list).getByRole('img', { name: 'shot.png' }).getAttribute('src')).toMatch(/^blob:/));
    expect(asked).toEqual([1, 2, 3, 4].map((attachmentId) => ({ conversationId: 7, messageId: 40, attachmentId })));
    const invoice = within(list).getByText('invoice.pdf').closest('li')!;
    await waitFor(() => expect(within(invoice as HTMLElement).getByRole('button', { name: 'Open invoice.pdf' })).toBeTruthy());
    expect(within(invoice as HTMLElement).getByRole('link', { name: 'Save invoice.pdf' }).getAttribute('download')).toBe('invoice.pdf');
    expect(list.textContent).toContain('far.png · Stored outside your service: not fetched.');
    expect(list.textContent).toContain('A program: not fetched, for your safety.');
    // Nothing refused offers a way to open or save it.
    expect(within(list).queryByRole('link', { name: /setup\.exe/ })).toBeNull();
  });

  it('an unsent message\'s files: by name and size, nothing asked of main, and the upload progress main reports', async () => {
    const { bridge, asked, emit } = filesBridge({});
    const clientId = '4b1c2d3e-5f60-4718-8a9b-0c1d2e3f4a5b';
    const m: Message = {
      ...msg(localMessageId(3), 7, { message_type: 1, echo_id: clientId }),
      attachments: [{ id: -1, file_type: 'image', data_url: null, file_size: 2048, fallback_title: 'pasted.png' }],
    };
    renderWithSession(<MessageBubble message={m} unsent={{ seq: 3, state: 'sending', attempts: 1, uncertain: false }} />, { bridge });
    expect(screen.getByRole('list', { name: 'Attachments' }).textContent).toContain('pasted.png · 2 KB');
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => emit({ clientId: 'another-message', sent: 5, total: 10 }));
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => emit({ clientId, sent: 512, total: 2048 }));
    expect(screen.getByRole('progressbar', { name: 'Uploading files' }).getAttribute('value')).toBe('25');
    expect(screen.getByText('Uploading 25%')).toBeTruthy();
    act(() => emit({ clientId, sent: 2048, total: 2048 }));
    expect(screen.getByText('Uploaded; waiting for the service…')).toBeTruthy();
    expect(asked).toEqual([]);
  });
});
