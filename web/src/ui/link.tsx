import type { ComponentChildren } from 'preact';
import { BASE, linkClick } from '../router';

export function Link({ to, children, current }: { to: string; children: ComponentChildren; current?: boolean }) {
  return (
    <a href={`${BASE}${to}`} onClick={(e) => linkClick(e, to)} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
