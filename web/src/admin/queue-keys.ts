import { useEffect, useRef, useState } from 'preact/hooks';

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** A plain key pressed outside any field: the reviewer is not typing. */
function forRows(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !(event.ctrlKey || event.metaKey || event.altKey || (target && TYPING.has(target.tagName)));
}

/**
 * A reviewer's keys on a queue's rows: j and k move between rows, x selects the row, a approves
 * it, r opens its rejection (with its reason box). Each key presses the row's own control, so
 * the keys do nothing a click would not; none acts while the reviewer types in a field.
 */
export function useRowKeys(rowCount: number) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [current, setCurrent] = useState(-1);
  useEffect(() => setCurrent(-1), [rowCount]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!forRows(event)) return;
      const rows = [...(body.current?.querySelectorAll<HTMLTableRowElement>(':scope > tr') ?? [])];
      if (rows.length === 0) return;
      const press = (selector: string) => () => rows[current]?.querySelector<HTMLElement>(selector)?.click();
      const move = (by: number) => () => {
        const next = Math.max(0, Math.min(rows.length - 1, current + by));
        setCurrent(next);
        rows[next]?.focus();
      };
      const actions: Record<string, () => void> = {
        j: move(1),
        k: move(-1),
        x: press('input[type=checkbox]'),
        a: press('form button[type=submit][aria-label^="Approve "]'),
        r: press('button[aria-label^="Reject "]'),
      };
      const action = actions[event.key];
      if (!action) return;
      action();
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [current]);
  return { body, current };
}
