import { fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { emptyPageRoles, pageRolesFor, withinView, type PageRoles } from './page-roles';
import { PageRolesEditor } from './page-roles-editor';

const pages = [
  { id: 'tickets', title: 'Tickets' },
  { id: 'reports', title: 'Reports' },
];
const roles = [
  { id: 1, name: 'Operators', permissions: [] },
  { id: 2, name: 'Auditors', permissions: [] },
];

function Harness({ onChange }: { onChange: (value: PageRoles) => void }) {
  const [value, setValue] = useState(emptyPageRoles(pages));
  return (
    <PageRolesEditor
      id="page-roles"
      pages={pages}
      roles={roles}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('page-roles editor', () => {
  it('lists every page of the add-on with a view and a manage choice for every role group', () => {
    render(<Harness onChange={() => {}} />);
    for (const page of ['Tickets', 'Reports']) {
      for (const role of ['Operators', 'Auditors']) {
        expect(screen.getByLabelText(`${role} may view ${page}`)).not.toBeNull();
        expect(screen.getByLabelText(`${role} may manage ${page}`)).not.toBeNull();
      }
    }
  });

  it('puts each box in its own column, under its role group and its "view" or "manage" heading', () => {
    render(<Harness onChange={() => {}} />);
    const table = screen.getByRole('table');
    /** A cell's first column, counting the spans before it and, in the second header row, the "Page" heading that spans both rows. */
    const columnOf = (cell: HTMLTableCellElement) => {
      let column = 0;
      for (
        let c = cell.previousElementSibling as HTMLTableCellElement | null;
        c;
        c = c.previousElementSibling as HTMLTableCellElement | null
      )
        column += c.colSpan;
      const row = cell.parentElement as HTMLTableRowElement;
      const above = [...table.querySelectorAll('thead tr')].indexOf(row) === 1 ? 1 : 0;
      return column + above;
    };
    const headings = screen.getAllByRole('columnheader');
    for (const page of ['Tickets', 'Reports']) {
      for (const [r, role] of ['Operators', 'Auditors'].entries()) {
        const group = headings.find((h) => h.textContent === role) as HTMLTableCellElement;
        expect(group.colSpan).toBe(2);
        for (const [i, right] of ['view', 'manage'].entries()) {
          const cell = screen.getByLabelText(`${role} may ${right} ${page}`).closest('td') as HTMLTableCellElement;
          expect(cell.querySelectorAll('input')).toHaveLength(1);
          const heading = headings.filter((h) => h.textContent === right)[r] as HTMLTableCellElement;
          expect(columnOf(cell)).toBe(columnOf(heading));
          expect(columnOf(cell)).toBe(columnOf(group) + i);
        }
      }
    }
  });

  it('explains the table outside its scrolling box, where a narrow screen cannot clip it, and reads it with the table', () => {
    const { container } = render(<Harness onChange={() => {}} />);
    const table = screen.getByRole('table', { name: 'Page roles' });
    const explanation = document.getElementById(table.getAttribute('aria-describedby')!)!;
    expect(explanation.textContent).toContain('who may also manage it');
    expect(explanation.closest('.table-scroll')).toBeNull();
    expect(table.closest('.table-scroll')).not.toBeNull();
    expect(container.querySelector('caption')!.textContent).toBe('Page roles');
  });

  it('says where the role groups a narrow screen cannot show are, and says nothing when all fit', () => {
    // jsdom lays nothing out: the scrolling box's sizes are what a 390 px phone gives.
    let scrollLeft = 0;
    let scrollWidth = 520;
    const sizes = {
      clientWidth: { get: () => 324 },
      scrollWidth: { get: () => scrollWidth },
      scrollLeft: { get: () => scrollLeft, set: (v: number) => (scrollLeft = v) },
    };
    const { container } = render(<Harness onChange={() => {}} />);
    const box = container.querySelector('.table-scroll') as HTMLElement;
    Object.defineProperties(box, sizes);
    fireEvent(window, new Event('resize'));
    const more = () => screen.queryByTestId('more-sideways')?.textContent ?? null;
    const frame = () => box.parentElement!.className;
    expect(more()).toBe('More role groups to the right: scroll the table sideways. →');
    expect(frame()).toBe('scroll-frame more-right');

    scrollLeft = 100;
    fireEvent.scroll(box);
    expect(more()).toBe('← More role groups on both sides: scroll the table sideways. →');
    expect(frame()).toBe('scroll-frame more-left more-right');

    scrollLeft = 196;
    fireEvent.scroll(box);
    expect(more()).toBe('← More role groups to the left: scroll the table sideways.');
    // The page names stay in view (style.css holds them at the left): the table is still read by page.
    expect(screen.getByRole('rowheader', { name: 'Tickets (tickets)' })).not.toBeNull();

    scrollLeft = 0;
    scrollWidth = 324;
    fireEvent(window, new Event('resize'));
    expect(more()).toBeNull();
    expect(frame()).toBe('scroll-frame');
  });

  it('grants the view with the manage, and withdraws the manage with the view', () => {
    let latest: PageRoles = {};
    render(<Harness onChange={(value) => (latest = value)} />);
    fireEvent.click(screen.getByLabelText('Operators may manage Tickets'));
    expect(latest.tickets).toEqual({ view: [1], manage: [1] });
    expect((screen.getByLabelText('Operators may view Tickets') as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByLabelText('Auditors may view Tickets'));
    expect(latest.tickets).toEqual({ view: [1, 2], manage: [1] });
    fireEvent.click(screen.getByLabelText('Operators may view Tickets'));
    expect(latest.tickets).toEqual({ view: [2], manage: [] });
    expect(latest.reports).toEqual({ view: [], manage: [] });
  });
});

describe('page roles sent', () => {
  it('narrows manage to view on every page, whatever the editor was given', () => {
    expect(withinView({ tickets: { view: [2], manage: [1, 2] } })).toEqual({ tickets: { view: [2], manage: [2] } });
  });

  it('names exactly the pages of the version at hand: new pages start empty, dropped ones go', () => {
    const saved = { tickets: { view: [1], manage: [1] }, archive: { view: [2], manage: [] } };
    expect(pageRolesFor(pages, saved)).toEqual({
      tickets: { view: [1], manage: [1] },
      reports: { view: [], manage: [] },
    });
  });
});
