import type { Schemas } from '../api/client';

type Application = Schemas['ReviewedApplication'];

/**
 * Who asks, on one line: the member, and what the application said of them (company, website,
 * purpose), each cut to the cell's width with the whole text a hover or a screen reader away.
 */
export function ApplicantCell({ application: a }: { application: Application }) {
  const said = [a.company, a.purpose].filter(Boolean).join(' — ');
  return (
    <td data-label="Member" class="applicant">
      <span>
        {a.username} <small>#{a.member_id}</small>
      </span>
      {(said || a.website) && (
        <small class="said" title={[a.company, a.website, a.purpose].filter(Boolean).join('\n')}>
          {said}
          {a.website && (
            <>
              {said ? ' · ' : ''}
              <a href={a.website} rel="noopener noreferrer nofollow" target="_blank">
                {a.website.replace(/^https?:\/\//, '')}
              </a>
            </>
          )}
        </small>
      )}
      {a.approved_by_rule && <small class="said">approved by the rule “{a.approved_by_rule.name}”</small>}
    </td>
  );
}
