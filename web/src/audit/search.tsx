import { actorOf } from './timeline';
import { useEffect, useState } from 'preact/hooks';
import { pathsAuditSearchGetParametersQueryTypeValues as EVENT_TYPES } from '../../generated/contract';
import { api, call, type Schemas } from '../api/client';
import { Pager } from '../admin/queue-controls';
import { Link } from '../ui/link';
import { useLoad, when } from '../ui/load';
import { Empty, Loading, LoadFailed } from '../ui/notice';
import { useQueryState } from '../ui/query-state';
import { TableHead } from '../ui/table';
import { historyAddress, localInput } from './links';
import { SelectField } from '../ui/select-field';

const PAGE_SIZE = 50;
const FILTERS = ['type', 'actor', 'from', 'to'] as const;

/** A typed local time as the instant the service takes; '' stays unset. */
const instantOf = (typed: string) => (typed ? new Date(typed).toISOString() : undefined);

/**
 * The audit search across members: events by type, actor and time range, each linked to its
 * member's timeline and to the state right then. The filters and the page are in the address, so
 * a search can be reloaded and passed on.
 */
export function AuditSearch() {
  const { params, cursors, update } = useQueryState();
  const asked = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const after = params.get('after') ?? undefined;
  const [typed, setTyped] = useState({ ...asked, from: localInput(asked.from), to: localInput(asked.to) });
  // Back or a shared link changes the search from outside.
  useEffect(() => setTyped({ ...asked, from: localInput(asked.from), to: localInput(asked.to) }), [params.toString()]);
  const searching = FILTERS.some((f) => asked[f]);
  const [found, reload] = useLoad(async () => {
    if (!searching) return { ok: true as const, data: null };
    const query = {
      ...(asked.type && { type: asked.type as (typeof EVENT_TYPES)[number] }),
      ...(asked.actor && { actor: asked.actor }),
      ...(asked.from && { from: asked.from }),
      ...(asked.to && { to: asked.to }),
    };
    return call(() =>
      api.GET('/audit/search', { params: { query: { ...query, limit: PAGE_SIZE, ...(after && { after }) } } }),
    );
  }, [params.toString()]);

  const submit = (event: Event) => {
    event.preventDefault();
    update({
      type: typed.type,
      actor: typed.actor.trim(),
      from: instantOf(typed.from),
      to: instantOf(typed.to),
      after: undefined,
    });
  };
  const field = (name: 'actor' | 'from' | 'to', label: string, type: string) => (
    <div class="field">
      <label for={`search-${name}`}>{label}</label>
      <input
        id={`search-${name}`}
        type={type}
        step={type === 'datetime-local' ? 1 : undefined}
        value={typed[name]}
        onInput={(e) => setTyped({ ...typed, [name]: (e.currentTarget as HTMLInputElement).value })}
      />
    </div>
  );

  return (
    <section aria-labelledby="audit-search-title" class="card">
      <h2 id="audit-search-title">Search events across members</h2>
      <form class="audit-search" role="search" aria-label="Events" onSubmit={submit}>
        <SelectField
          id="search-type"
          label="Event type"
          value={typed.type}
          options={EVENT_TYPES}
          onChange={(type) => setTyped({ ...typed, type })}
        >
          <option value="">any</option>
        </SelectField>
        {field('actor', 'Actor (username)', 'text')}
        {field('from', 'From (your local time)', 'datetime-local')}
        {field('to', 'Until (your local time)', 'datetime-local')}
        <button type="submit" class="primary">
          Search events
        </button>
      </form>
      {found.state === 'loading' && <Loading what="the events" />}
      {found.state === 'failed' && <LoadFailed refusal={found.refusal} onRetry={reload} />}
      {found.state === 'ready' && found.data && <FoundEvents page={found.data} />}
      {found.state === 'ready' && found.data && (
        <Pager
          shown={found.data.list.length}
          total={null}
          before={cursors.length}
          pageSize={PAGE_SIZE}
          hasNext={found.data.next !== null}
          onPrevious={() => update({ after: cursors.at(-1) || undefined }, cursors.slice(0, -1))}
          onNext={() => update({ after: found.data?.next ?? undefined }, [...cursors, after ?? ''])}
        />
      )}
    </section>
  );
}

/** One page of the events found, each linked to its member's timeline and to the state right then. */
function FoundEvents({ page }: { page: Schemas['AuditSearchPage'] }) {
  if (page.list.length === 0)
    return <Empty>No event matches{page.next ? ' in this part of the log: the next page reads on' : ''}.</Empty>;
  return (
    <table class="audit-found">
      <caption>Events found, oldest first</caption>
      <TableHead columns={['When', 'Event', 'Actor', 'What happened', 'Member']} />
      <tbody>
        {page.list.map((e) => (
          <tr key={e.position}>
            <td data-label="When">{e.time ? <time dateTime={e.time}>{when(e.time)}</time> : '—'}</td>
            <td data-label="Event">
              <code>{e.type}</code>
            </td>
            <td data-label="Actor">{actorOf(e.actor)}</td>
            <td data-label="What happened">{e.summary}</td>
            <td data-label="Member">
              {e.member_id === null ? (
                '—'
              ) : (
                <span class="actions">
                  <Link to={historyAddress(e.member_id)}>Timeline of #{e.member_id}</Link>
                  {e.time && <Link to={historyAddress(e.member_id, e.time)}>State then</Link>}
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
