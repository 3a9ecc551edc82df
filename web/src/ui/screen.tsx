import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import { takeArrival } from '../router';

/** The area a screen belongs to ("Developer center"), named in the browser's title after the screen. */
export const ScreenArea = createContext<string | null>(null);

export const PRODUCT = 'Platform';

/** The window title of a screen: the screen, its area, the product, most specific first as tabs and history show them. */
export function screenTitle(screen: string, area: string | null): string {
  return [screen, area, PRODUCT].filter(Boolean).join(' – ');
}

/**
 * A screen's h1. After a screen change it takes focus, so keyboard and screen-reader users start
 * at the new screen instead of the top of the page; it also names the screen in the window title.
 * `title` is for a heading whose words do not name the screen ("Hello, alice" is the dashboard).
 */
export function ScreenHeading({ id, title, children }: { id?: string; title?: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const area = useContext(ScreenArea);
  // On every render: the words may change in place, and the heading may show only once the screen's data has loaded.
  useEffect(() => {
    document.title = screenTitle(title ?? heading.current?.textContent ?? '', area);
    if (takeArrival()) heading.current?.focus();
  });
  return (
    <h1 id={id} ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}
