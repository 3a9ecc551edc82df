import { Link } from './link';
import { ScreenHeading } from './screen';

/** An address the console has no screen for: said so, with the way home, never another screen in its place. */
export function NotFound({ home, homeLabel }: { home: string; homeLabel: string }) {
  return (
    <section class="card" aria-labelledby="not-found-title">
      <ScreenHeading id="not-found-title">There is no page at this address</ScreenHeading>
      <p>
        Check the address, or go to <Link to={home}>{homeLabel}</Link>.
      </p>
    </section>
  );
}
