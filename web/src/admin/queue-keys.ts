import { useEffect, useRef, useState } from 'preact/hooks';

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** A plain key pressed outside any field: the reviewer is not typing. */
function forRows(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !(event.ctrlKey || event.metaKey || event.altKey || (target && TYPING.has(target.tagName)));
}

/** The row the keys are on, and how many rows there were then: another list starts with no row. */
interface Place {
  row: number;
  of: number;
}

const rowIn = (place: Place, rowCount: number) => (place.of === rowCount ? place.row : -1);

/**
 * A reviewer's keys on a queue's rows: j and k move between rows, x selects the row, a approves
 * it, r opens its rejection (with its reason box). Each key presses the row's own control, so
 * the keys do nothing a click would not; none acts while the reviewer types in a field.
 *
 * The row is kept in a ref and read when a key comes, and a list of another length starts with no
 * row as it renders: state read through an effect lags a frame behind (Preact runs effects after
 * paint), and an "x" pressed right after "j" on a busy browser met the listener of the render
 * before, or a reset of the row still pending, and selected nothing (issue 46, the full e2e run).
 */
export function useRowKeys(rowCount: number) {
  const body = useRef<HTMLTableSectionElement>(null);
  const place = useRef<Place>({ row: -1, of: 0 });
  const [, setShown] = useState(place.current);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!forRows(event)) return;
      const rows = [...(body.current?.querySelectorAll<HTMLTableRowElement>(':scope > tr') ?? [])];
      if (rows.length === 0) return;
      const here = rowIn(place.current, rows.length);
      const press = (selector: string) => () => rows[here]?.querySelector<HTMLElement>(selector)?.click();
      const move = (by: number) => () => {
        const row = Math.max(0, Math.min(rows.length - 1, here + by));
        place.current = { row, of: rows.length };
        setShown(place.current);
        rows[row]?.focus();
      };
      const actions: Record<string, () => void> = {
        j: move(1),
        k: move(-1),
        x: press('td.select input[type=checkbox]'),
        a: press('button[aria-label^="Approve "]'),
        r: press('button[aria-label^="Reject "]'),
      };
      const action = actions[event.key];
      if (!action) return;
      action();
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return { body, current: rowIn(place.current, rowCount) };
}
