import { Link } from './ui/link';
import { ScreenHeading } from './ui/screen';

/** The console's front door: what the platform is, and where each of its users goes. */
export function Landing() {
  return (
    <section class="landing" aria-labelledby="landing-title">
      <ScreenHeading id="landing-title" title="Welcome">
        Platform API
      </ScreenHeading>
      <p class="lead">
        The platform lets partner servers call its open API with scoped credentials. Developers register, apply for an
        API key and ask for the scopes they need; administrators review each request, run the application center and
        keep an audited history of every decision.
      </p>
      <ul class="doors">
        <li>
          <Link to="/developer">Developer center</Link>
          <p>Register or sign in, apply for your API key, claim it once, request scopes and watch your key's use.</p>
        </li>
        <li>
          <Link to="/admin">Administrator console</Link>
          <p>
            Review credential applications and scope requests, manage add-ons, role groups and webhooks, and replay the
            audit history.
          </p>
        </li>
        <li>
          <Link to="/developer/reference">API reference</Link>
          <p>The open endpoints partner servers call, with their parameters and answers (for signed-in developers).</p>
        </li>
      </ul>
    </section>
  );
}
