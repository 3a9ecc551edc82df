import { render, screen } from '@testing-library/preact';
import { REASON_MAX_LENGTH, ReasonField } from './reason';

const field = (value: string) => <ReasonField id="why" label="Purpose of use" value={value} onInput={() => {}} />;

describe('the reason counter', () => {
  it('shows the count without reading it out on every keystroke', () => {
    render(field('List the add-ons'));
    const counter = screen.getByText(`16 / ${REASON_MAX_LENGTH} characters`);
    expect(counter.getAttribute('aria-live')).toBeNull();
    expect(counter.closest('[aria-live]')).toBeNull();
    expect(screen.getByTestId('why-left').textContent).toBe('');
    // Read with the box, when the user is there.
    expect(screen.getByLabelText('Purpose of use').getAttribute('aria-describedby')).toBe(counter.id);
  });

  it('speaks only near the limit, saying how many characters are left', () => {
    const { rerender } = render(field('x'.repeat(REASON_MAX_LENGTH - 50)));
    const left = screen.getByTestId('why-left');
    expect(left.getAttribute('aria-live')).toBe('polite');
    expect(left.textContent).toBe('');
    rerender(field('x'.repeat(REASON_MAX_LENGTH - 49)));
    expect(left.textContent).toBe('49 characters left');
    rerender(field('x'.repeat(REASON_MAX_LENGTH - 1)));
    expect(left.textContent).toBe('1 character left');
  });
});
