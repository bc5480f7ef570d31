// The directory is read once for the inbox: what renders under its DirectoryContext (the composer and
// the contact panel, mounted again with every conversation opened) takes that one instead of reading
// the five tables again; rendered alone, a screen reads them itself.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Directory } from '../../renderer/src/directory/use-directory';
import { DirectoryContext, useDirectory } from '../../renderer/src/directory/use-directory';
import { renderWithSession, silentBridge } from './support/render';

function Labels() {
  const directory = useDirectory();
  return <p data-testid="labels">{directory.labels.map((l) => l.title).join(',') || 'none'}</p>;
}

const label = (id: number, title: string) => ({ id, title, description: null, color: '#000000', show_on_sidebar: true });

describe('useDirectory', () => {
  it('reads the cache where no inbox provides the directory', async () => {
    const { db } = renderWithSession(<Labels />, { bridge: silentBridge });
    await db.labels.bulkPut([label(1, 'billing'), label(2, 'vip')]);
    await waitFor(() => expect(screen.getByTestId('labels').textContent).toBe('billing,vip'));
  });

  it("takes the inbox's directory where one is provided, without reading the tables itself", async () => {
    const provided: Directory = { inboxes: [], agents: [], teams: [], labels: [label(3, 'refund')], cannedResponses: [] };
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: silentBridge });
    await db.labels.bulkPut([label(1, 'billing')]);
    rerenderWith(
      <>
        <DirectoryContext.Provider value={provided}>
          <Labels />
        </DirectoryContext.Provider>
        <section data-testid="alone">
          <Labels />
        </section>
      </>,
    );
    // The one outside the provider has read the cache by now; the one inside never shows it.
    await waitFor(() => expect(within(screen.getByTestId('alone')).getByTestId('labels').textContent).toBe('billing'));
    const inside = screen.getAllByTestId('labels').find((el) => !el.closest('[data-testid="alone"]'))!;
    expect(inside.textContent).toBe('refund');
  });
});
