import { everyPage, type Page } from './pages';
import type { Answer } from './client';

const ok = <T,>(data: T): Answer<T> => ({ ok: true, data, message: 'ok' });

it('follows next until the last page and gives every item once, in order', async () => {
  const asked: (string | undefined)[] = [];
  const pages: Record<string, Page<number>> = {
    first: { list: [1, 2], next: '2' },
    '2': { list: [3, 4], next: '4' },
    '4': { list: [5], next: null },
  };
  const answer = await everyPage(async (after) => {
    asked.push(after);
    return ok(pages[after ?? 'first']!);
  });
  expect(asked).toEqual([undefined, '2', '4']);
  expect(answer).toEqual({ ok: true, data: { list: [1, 2, 3, 4, 5], next: null }, message: 'ok' });
});

it('answers the refusal of any page', async () => {
  const refusal = {
    status: 422,
    message: 'after is not the next of an earlier page',
    error: 'invalid_cursor',
    issues: [],
  };
  const answer = await everyPage<number>(async (after) =>
    after ? { ok: false, refusal } : ok({ list: [1], next: '1' }),
  );
  expect(answer).toEqual({ ok: false, refusal });
});
