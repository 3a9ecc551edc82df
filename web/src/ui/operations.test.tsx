import { render, screen } from '@testing-library/preact';
import { anchorOf, Contents, Operations, type ContractDocument } from './operations';

const document: ContractDocument = {
  paths: {
    '/credentials': {
      get: {
        summary: 'List credential applications',
        tags: ['admin'],
        responses: {
          '200': { description: 'List credential applications' },
          '503': {
            description:
              '- the read models are at an older projection version: run `platform upgrade`\n- the read models are catching up; retry after Retry-After',
          },
        },
      },
    },
    '/open/addons': {
      get: { summary: 'The add-ons', tags: ['partner'], responses: { '200': { description: 'The add-ons' } } },
    },
  },
};

describe('the contract, rendered', () => {
  it('shows the reasons of one status as a list, each whole, with its commands as code', () => {
    render(<Operations document={document} />);
    const reasons = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(reasons).toEqual([
      'the read models are at an older projection version: run platform upgrade',
      'the read models are catching up; retry after Retry-After',
    ]);
    expect(screen.getByText('platform upgrade').tagName).toBe('CODE');
  });

  it("folds each operation's answers under a summary that counts them, closed until opened", () => {
    render(<Operations document={document} />);
    const [first] = screen.getAllByText(/^Answers \(\d+\)$/);
    expect(first!.tagName).toBe('SUMMARY');
    expect(first!.textContent).toBe('Answers (2)');
    const details = first!.parentElement as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelectorAll('tbody tr')).toHaveLength(2);
  });

  it('lists every call by tag in the contents, each linking to its card', () => {
    const { container } = render(
      <>
        <Contents document={document} />
        <Operations document={document} />
      </>,
    );
    const contents = screen.getByRole('navigation', { name: 'Contents' });
    expect([...contents.querySelectorAll('h3')].map((h) => h.textContent)).toEqual(['admin', 'partner']);
    for (const link of contents.querySelectorAll('a')) {
      expect(container.querySelector(link.getAttribute('href')!)?.tagName).toBe('ARTICLE');
    }
    expect(anchorOf('GET', '/credentials/{member_id}/history')).toBe('op-get-credentials-member-id-history');
  });
});
