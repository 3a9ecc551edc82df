import type { Answer } from './client';

/** A page of a list, as /credentials and /scope-requests answer it. */
export interface Page<Item> {
  list: Item[];
  next: string | null;
}

/** The largest page the service gives: the console's lists are short, so it reads them whole. */
export const PAGE_LIMIT = 200;

/**
 * Every item of a paginated list, following `next` page by page. A refusal of any page is the
 * answer; the pages' items come in the service's order, with what else the last page says.
 */
export async function everyPage<Item, P extends Page<Item> = Page<Item>>(
  page: (after: string | undefined) => Promise<Answer<P>>,
): Promise<Answer<P>> {
  const list: Item[] = [];
  let after: string | undefined;
  for (;;) {
    const answer = await page(after);
    if (!answer.ok) return answer;
    list.push(...answer.data.list);
    if (answer.data.next === null) return { ...answer, data: { ...answer.data, list, next: null } };
    after = answer.data.next;
  }
}
