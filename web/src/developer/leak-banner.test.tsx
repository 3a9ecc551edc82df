import { render, screen } from '@testing-library/preact';
import { LeakBanner } from './leak-banner';

const leak = {
  key_fingerprint: 'a1b2c3d4',
  url: 'https://github.com/octo/leaky/blob/1/.env',
  source: 'content',
  reported_at: '2026-12-02T07:00:00.000Z',
  quarantined: true,
};

describe('a key found in public, on the dashboard', () => {
  it('says where it was found, that it is refused, and to rotate', () => {
    render(<LeakBanner leak={leak} />);
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toContain('Your API key a1b2c3d4… was found in public');
    expect(banner.textContent).toContain('refused from now on (401 credential_leaked)');
    expect(banner.textContent).toContain('Rotate your key below');
    expect(banner.textContent).toContain('(found in content)');
    expect(screen.getByRole('link', { name: leak.url }).getAttribute('href')).toBe(leak.url);
  });

  it('tells a key still accepted apart, and links no address that is not a web one', () => {
    render(<LeakBanner leak={{ ...leak, quarantined: false, url: 'javascript:alert(1)' }} />);
    expect(screen.getByRole('alert').textContent).toContain('It still works');
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('javascript:alert(1)').tagName).toBe('CODE');
  });

  it('shows nothing when no key was reported', () => {
    const { container } = render(<LeakBanner leak={null} />);
    expect(container.textContent).toBe('');
  });
});
