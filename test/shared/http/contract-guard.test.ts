import { breakingChanges, unannouncedBreakingChanges } from '../../../scripts/contract/breaking-changes';
import { committedContractText, servedContractText } from '../../../scripts/contract/committed';

type Document = Parameters<typeof breakingChanges>[0];
// Loose on purpose: a test reaches into the document to plant one change at a time.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const committed = (): Json => JSON.parse(committedContractText());
/** The body's object: the register body's is the first of its allOf, beside "email or mobile". */
const bodyOf = (document: Json, path: string, method = 'post') => {
  const schema = document.paths[path][method].requestBody.content['application/json'].schema;
  return schema.allOf?.[0] ?? schema;
};
const answerOf = (document: Json, path: string) =>
  document.paths[path].post.responses['200'].content['application/json'].schema.properties.data;
/** The reasons of a refusal: the enum of data.error beside the shared Refusal (allOf). */
const reasonsOf = (document: Json, path: string, status: string): string[] =>
  document.paths[path].post.responses[status].content['application/json'].schema.allOf[1].properties.data.properties
    .error.enum;

describe('the committed contract (docs/openapi.json)', () => {
  it('is the one the service serves, with no breaking change the version does not announce', () => {
    const served = servedContractText();
    const breaks = unannouncedBreakingChanges(committed(), JSON.parse(served));
    expect({ breakingChangesWithoutANewMajorContractVersion: breaks }).toEqual({
      breakingChangesWithoutANewMajorContractVersion: [],
    });
    if (served !== committedContractText()) {
      throw new Error(
        'the served contract differs from docs/openapi.json: run `npm run contract:update` and commit it',
      );
    }
  });
});

describe('a breaking change planted in the contract', () => {
  const planted: [string, (document: Json) => void, RegExp][] = [
    [
      'an operation removed',
      (d) => delete d.paths['/developer/register'].post,
      /POST \/developer\/register: operation removed/,
    ],
    [
      'a field of an answer removed',
      (d) => delete answerOf(d, '/developer/register').properties.username,
      /field username removed/,
    ],
    [
      'an enum value removed',
      (d) => bodyOf(d, '/webhooks').properties.events.items.enum.pop(),
      /enum value "[a-z.]+" removed/,
    ],
    [
      "a reason removed from a refusal's enum",
      (d) =>
        reasonsOf(d, '/developer/register', '422').splice(
          reasonsOf(d, '/developer/register', '422').indexOf('username_taken'),
          1,
        ),
      /422 body\.data\.error: enum value "username_taken" removed/,
    ],
    [
      'a type narrowed',
      (d) => (bodyOf(d, '/developer/register').properties.username.type = 'integer'),
      /type "string" became "integer"/,
    ],
    ['a bound narrowed', (d) => (bodyOf(d, '/webhooks').properties.url.maxLength = 100), /maxLength lowered to 100/],
    [
      'a new required input',
      (d) => bodyOf(d, '/developer/register').required.push('nickname'),
      /nickname newly required/,
    ],
  ];

  it.each(planted)('is found: %s', (_name, plant, found) => {
    const after = committed();
    plant(after);
    expect(unannouncedBreakingChanges(committed() as Document, after)).toEqual([expect.stringMatching(found)]);
  });

  it('passes with a new major version of the contract', () => {
    const after = committed();
    // The operation's removal last: the others plant into it.
    for (const [, plant] of [...planted].reverse()) plant(after);
    after.info.version = `${Number(after.info.version.split('.')[0]) + 1}.0.0`;
    expect(breakingChanges(committed(), after)).not.toEqual([]);
    expect(unannouncedBreakingChanges(committed(), after)).toEqual([]);
  });

  it('leaves what breaks nobody: a new optional input, a new field in an answer, a new operation', () => {
    const after = committed();
    bodyOf(after, '/webhooks').properties.description = { type: 'string' };
    answerOf(after, '/developer/register').properties.nickname = { type: 'string' };
    after.paths['/something-new'] = { get: { responses: {} } };
    reasonsOf(after, '/developer/register', '422').push('a_new_reason');
    expect(breakingChanges(committed(), after)).toEqual([]);
  });
});
