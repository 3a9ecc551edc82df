import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { MailSender } from '../../src/mail/mail-sender';
import { MAIL_OUTBOX, mailWrite, OutboxMail, queuedMail } from '../../src/mail/outbox';
import { Stores } from '../../src/stores/ports';
import { openSqliteStores } from '../../src/stores/sqlite';

let dir: string;
let stores: Stores;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mail-sender-'));
  stores = openSqliteStores(dir);
  await stores.documents.ensureCollections([MAIL_OUTBOX]);
});
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

const mailTo = (to: string, position: string) =>
  queuedMail(`member:${position}`, 'member', to, { subject: 'Approved', text: 'Hello' }, position, new Date());
const statusOf = async (id: string) => (await stores.documents.get<OutboxMail>(MAIL_OUTBOX.name, id))?.doc;

describe('the mail sender', () => {
  it('sends the other mails while one send hangs, and tries again later a mail the server could not take now', async () => {
    let release = () => {};
    const hung = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    let busyOnce = true;
    const send = async (to: string) => {
      if (to === 'slow@example.com') return hung;
      if (to === 'busy@example.com' && busyOnce) {
        busyOnce = false;
        throw Object.assign(new Error('451 try again later'), { responseCode: 451 });
      }
      sent.push(to);
    };
    const mails = [
      mailTo('slow@example.com', '001'),
      mailTo('busy@example.com', '002'),
      ...['a', 'b', 'c', 'd', 'e'].map((n, i) => mailTo(`${n}@example.com`, `01${i}`)),
    ];
    await stores.documents.write(mails.map(mailWrite));
    const sender = new MailSender(stores.documents, send, pino({ level: 'silent' }), { schedule: [50], tickMs: 10 });
    await sender.start();
    const deadline = Date.now() + 5000;
    while (sent.length < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(sent.sort()).toEqual([
      'a@example.com',
      'b@example.com',
      'busy@example.com',
      'c@example.com',
      'd@example.com',
      'e@example.com',
    ]);
    expect(await statusOf('member:002')).toMatchObject({ status: 'delivered', attempts: 2, cause: null });
    expect(await statusOf('member:001')).toMatchObject({ status: 'pending', attempts: 0 });
    release();
    await sender.stop();
    expect(await statusOf('member:001')).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('marks a permanent refusal dead at once, with its cause, and a temporary one dead after the last attempt', async () => {
    const send = async (to: string) => {
      const code = to === 'gone@example.com' ? 550 : 421;
      throw Object.assign(new Error(`${code} refused`), { responseCode: code });
    };
    await stores.documents.write(
      [mailTo('gone@example.com', '001'), mailTo('flaky@example.com', '002')].map(mailWrite),
    );
    const sender = new MailSender(stores.documents, send, pino({ level: 'silent' }), {
      schedule: [20, 20],
      tickMs: 10,
    });
    await sender.start();
    const deadline = Date.now() + 5000;
    while ((await statusOf('member:002'))?.status !== 'dead' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await sender.stop();
    expect(await statusOf('member:001')).toMatchObject({ status: 'dead', attempts: 1, cause: '550 refused' });
    expect(await statusOf('member:002')).toMatchObject({ status: 'dead', attempts: 3, cause: '421 refused' });
  });
});
