import { Link } from './link';

/** An address the console has no screen for: said so, with the way home, never another screen in its place. */
export function NotFound({ home, homeLabel }: { home: string; homeLabel: string }) {
  return (
    <section class="card" aria-labelledby="not-found-title">
      <h1 id="not-found-title">There is no page at this address</h1>
      <p>
        Check the address, or go to <Link to={home}>{homeLabel}</Link>.
      </p>
    </section>
  );
}
