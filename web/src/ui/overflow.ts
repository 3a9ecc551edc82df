import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Which sides of a sideways-scrolling box hold more than it shows. */
export interface Overflow {
  left: boolean;
  right: boolean;
}

const NONE: Overflow = { left: false, right: false };

/**
 * Follows a sideways-scrolling box as it scrolls and as it or its content change size, so the
 * screen can say there is more to see: a scrollbar alone is hidden on phones until touched, and a
 * column cut at the screen's edge looks like the end of the table.
 */
export function useOverflow(box: RefObject<HTMLElement>): Overflow {
  const [overflow, setOverflow] = useState<Overflow>(NONE);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      // A pixel of rounding is no content.
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setOverflow((o) => (o.left === left && o.right === right ? o : { left, right }));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [box]);
  return overflow;
}
