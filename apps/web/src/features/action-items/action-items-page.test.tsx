import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ActionItem, ActionItemListInput, ActionItemPage, UpdateActionItemInput } from '@mbox/shared/action-items';
import { createFakeTrpc } from '../../test/fake-trpc';
import { renderRoutes } from '../../test/render';
import { dueLabel, isOverdue } from './action-item-row';
import { ActionItemsPage } from './action-items-page';

const launch = { id: 'm2', title: 'Launch sync', startedAt: Date.UTC(2026, 10, 24, 9) };
const planning = { id: 'm1', title: '', startedAt: Date.UTC(2026, 10, 17, 9) };

function item(id: string, overrides: Partial<ActionItem> = {}): ActionItem {
  return {
    id,
    meeting: launch,
    text: `Task ${id}`,
    owner: 'Ben',
    due: null,
    status: 'open',
    doneAt: null,
    source: { messageId: `line-${id}`, speaker: 'Ben', spokenAt: launch.startedAt + 60_000 },
    edited: false,
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

/** A ledger behind a fake server: list filters by status and owner, updates change the stored items. */
function ledger(items: ActionItem[]) {
  const updates: UpdateActionItemInput[] = [];
  const fake = createFakeTrpc({
    'actionItems.list': (input) => {
      const { status, owner } = input as ActionItemListInput;
      const page: ActionItemPage = {
        items: items.filter((i) => (!status || i.status === status) && (!owner || i.owner === owner)),
        nextCursor: null,
      };
      return page;
    },
    'actionItems.facets': () => ({ owners: [...new Set(items.map((i) => i.owner))].sort(), meetings: [launch, planning] }),
    'actionItems.update': (input) => {
      const { id, ...patch } = input as UpdateActionItemInput;
      updates.push(input as UpdateActionItemInput);
      const index = items.findIndex((i) => i.id === id);
      items[index] = { ...items[index]!, ...patch, edited: patch.text !== undefined || items[index]!.edited } as ActionItem;
      return items[index];
    },
  });
  return { fake, updates };
}

const render = (fake: ReturnType<typeof createFakeTrpc>, path = '/action-items') =>
  renderRoutes([{ path: '/action-items', element: <ActionItemsPage /> }], { fake, path });

describe('/action-items', () => {
  it('lists open items by meeting, newest first, each linking to the line it came from', async () => {
    const { fake } = ledger([item('a', { due: '2026-11-27' }), item('b', { owner: 'Ana' }), item('c', { meeting: planning }), item('d', { status: 'done' })]);
    render(fake);
    const sections = await screen.findAllByRole('region');
    expect(sections.map((s) => within(s).getByRole('heading').textContent)).toEqual([expect.stringMatching(/^Launch sync/), expect.stringMatching(/^Untitled meet/)]);
    expect(within(sections[0]!).getAllByTestId('action-item').map((row) => row.textContent)).toEqual([
      expect.stringContaining('Ben: Task a'),
      expect.stringContaining('Ana: Task b'),
    ]);
    expect(within(sections[0]!).getAllByTestId('action-item-source')[0]!.getAttribute('href')).toBe('/m2?line=line-a');
    expect(screen.queryByText('Task d')).toBeNull();
  });

  it('filters by owner and status through the address', async () => {
    const { fake } = ledger([item('a'), item('b', { owner: 'Ana' }), item('d', { status: 'done', owner: 'Ana' })]);
    const { router } = render(fake);
    await screen.findByText('Task a');
    fireEvent.change(screen.getByLabelText('Owner'), { target: { value: 'Ana' } });
    await waitFor(() => expect(screen.queryByText('Task a')).toBeNull());
    expect(await screen.findByText('Task b')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'all' } });
    expect(await screen.findByText('Task d')).toBeTruthy();
    expect(router.state.location.search).toBe('?owner=Ana&status=all');
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(await screen.findByText('Task a')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('ticks an item off in place, and edits it from the keyboard: Enter saves, Escape cancels', async () => {
    const { fake, updates } = ledger([item('a'), item('b')]);
    render(fake);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Done: Task a' }));
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'Done: Task a' }) as HTMLInputElement).checked).toBe(true));
    expect(updates).toEqual([{ id: 'a', status: 'done' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Edit: Task b' }));
    const task = screen.getByLabelText('Task');
    expect(document.activeElement).toBe(task);
    fireEvent.change(task, { target: { value: 'Task b, reworded' } });
    fireEvent.keyDown(task, { key: 'Escape' });
    expect(screen.queryByLabelText('Task')).toBeNull();
    expect(updates).toHaveLength(1);
    // Focus goes back to Edit, which exists again only once the editor has closed.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit: Task b' })));

    fireEvent.click(screen.getByRole('button', { name: 'Edit: Task b' }));
    fireEvent.change(screen.getByLabelText('Task'), { target: { value: 'Task b, reworded' } });
    fireEvent.change(screen.getByLabelText('Due'), { target: { value: '2026-12-01' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Edit action item' }));
    expect(await screen.findByText('Task b, reworded')).toBeTruthy();
    expect(updates[1]).toEqual({ id: 'b', text: 'Task b, reworded', owner: 'Ben', due: '2026-12-01' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit: Task b, reworded' })));
  });

  it('reads one page at a time: Show more asks for the next with the cursor the last one gave', async () => {
    const pages: Record<string, ActionItemPage> = {
      first: { items: [item('a'), item('b')], nextCursor: 'b' },
      b: { items: [item('c', { meeting: planning })], nextCursor: null },
    };
    const fake = createFakeTrpc({
      'actionItems.list': (input) => pages[(input as ActionItemListInput).cursor ?? 'first'],
      'actionItems.facets': () => ({ owners: ['Ben'], meetings: [launch, planning] }),
    });
    render(fake);
    await screen.findByText('Task b');
    expect(screen.queryByText('Task c')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Task c')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(fake.calls.filter((c) => c.path === 'actionItems.list').map((c) => (c.input as ActionItemListInput).cursor)).toEqual([undefined, 'b']);
  });

  it('says how items get here when there are none, and offers to clear filters that match nothing', async () => {
    render(ledger([]).fake);
    expect((await screen.findByTestId('action-items-empty')).textContent).toContain('When a meeting ends');
    render(ledger([item('a')]).fake, '/action-items?owner=Zoe');
    expect(await screen.findByText('No action items match these filters')).toBeTruthy();
  });

  it('writes due days short, with the year only when it is another one, and flags overdue open items', () => {
    expect(dueLabel('2026-03-06', '2026-01-10')).toBe('Fri, Mar 6');
    expect(dueLabel('2027-03-05', '2026-01-10')).toBe('Fri, Mar 5, 2027');
    expect(isOverdue({ status: 'open', due: '2026-01-09' }, '2026-01-10')).toBe(true);
    expect(isOverdue({ status: 'done', due: '2026-01-09' }, '2026-01-10')).toBe(false);
    expect(isOverdue({ status: 'open', due: '2026-01-10' }, '2026-01-10')).toBe(false);
  });
});
