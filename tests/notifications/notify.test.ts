import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../../src/accounts/user.entity';
import { Notification } from '../../src/notifications/notification.entity';
import {
  ANTI_SPAM_MS,
  notify,
  notifyAll,
  notifyVote,
  type NotificationRequest,
  type VoteEvent,
} from '../../src/notifications/notify';
import { buildUser } from '../factories';
import { sentToPostgres } from '../setup/db';
import { useTestApp } from '../setup/harness';
import { notificationsOf } from './helpers';

/** notify(): the one writer of notifications and its skip rules (semantics §4). */
const t = useTestApp();

/** Runs `work` in a fresh entity manager and flushes what it created. */
async function inEm<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const em = t.orm.em.fork();
  const result = await work(em);
  await em.flush();
  return result;
}

const send = (request: NotificationRequest) => inEm((em) => notify(em, request));
const vote = (event: VoteEvent) => inEm((em) => notifyVote(em, event));
const stored = () => t.orm.em.fork().count(Notification, {});

async function pair() {
  const recipient = await buildUser(t.orm, { avatar_path: '/avatars/r.jpg' });
  const initiator = await buildUser(t.orm, { avatar_path: '/avatars/i.jpg' });
  return { recipient, initiator };
}

const follow = (recipient: User, initiator: User, eventKey: string, at?: Date): NotificationRequest => ({
  recipient,
  type: 'follow',
  initiator,
  data: { username: initiator.username },
  eventKey,
  at,
});

const commentVote = (
  recipient: User,
  voter: User,
  item: string,
  userScore: number,
  at?: Date,
): VoteEvent => ({
  type: 'comment_vote',
  recipient,
  voter,
  item,
  data: { slug: 'frieren', comment_reference: item, username: voter.username, avatar: 'x' },
  userScore,
  oldScore: 3,
  newScore: 3 + userScore,
  at,
});

describe('notify()', () => {
  it('creates an unseen notification with its recipient, type, initiator, data and event time', async () => {
    const { recipient, initiator } = await pair();
    const at = new Date('2026-01-01T12:00:00.000Z');
    const created = await send({
      recipient,
      type: 'comment_reply',
      initiator,
      data: { comment_text: 'hi' },
      eventKey: 'comment:1',
      at,
    });
    expect(created).not.toBeNull();
    const [row] = await notificationsOf(t.orm, recipient);
    expect(row).toMatchObject({
      notification_type: 'comment_reply',
      data: { comment_text: 'hi' },
      seen: false,
      created: at,
      updated: at,
      event_key: 'comment:1',
    });
    expect(row.initiator_user?.reference).toBe(initiator.reference);
  });

  describe('skip rules', () => {
    it('skips a type the recipient ignores', async () => {
      const { initiator } = await pair();
      const recipient = await buildUser(t.orm, { ignored_notifications: ['comment_reply', 'follow'] });
      const request = { recipient, initiator, data: {}, eventKey: 'e' } as const;
      expect(await send({ ...request, type: 'follow' })).toBeNull();
      expect(await send({ ...request, type: 'comment_reply' })).toBeNull();
      expect(await send({ ...request, type: 'comment_tag' })).not.toBeNull();
      expect(await stored()).toBe(1);
    });

    it('skips the recipient’s own event', async () => {
      const { recipient } = await pair();
      expect(await send(follow(recipient, recipient, 'follow:own'))).toBeNull();
      expect(await stored()).toBe(0);
    });

    it('skips the recipient’s own event when the initiator is not shown (actor)', async () => {
      const { recipient } = await pair();
      const request: NotificationRequest = {
        recipient,
        type: 'article_vote',
        initiator: null,
        actor: recipient,
        data: {},
        eventKey: 'vote:own',
      };
      expect(await send(request)).toBeNull();
      expect(await stored()).toBe(0);
    });

    it('notifies a system event (no initiator) whatever the recipient', async () => {
      const { recipient } = await pair();
      const request: NotificationRequest = {
        recipient,
        type: 'system_update',
        initiator: null,
        data: {},
        eventKey: 'update:1',
      };
      expect(await send(request)).not.toBeNull();
    });

    it('skips an event that already notified the recipient with that type', async () => {
      const { recipient, initiator } = await pair();
      const other = await buildUser(t.orm);
      const request: NotificationRequest = {
        recipient,
        type: 'comment_tag',
        initiator,
        data: {},
        eventKey: 'comment:42',
      };
      expect(await send(request)).not.toBeNull();
      expect(await send(request)).toBeNull();
      // The same event may notify another recipient, or the same one with another type.
      expect(await send({ ...request, recipient: other })).not.toBeNull();
      expect(await send({ ...request, type: 'comment_reply' })).not.toBeNull();
      expect(await stored()).toBe(3);
    });

    it('sees the unflushed notifications of the same unit of work', async () => {
      const { recipient, initiator } = await pair();
      const request: NotificationRequest = {
        recipient,
        type: 'comment_tag',
        initiator,
        data: {},
        eventKey: 'comment:1',
      };
      await inEm(async (em) => {
        expect(await notify(em, request)).not.toBeNull();
        expect(await notify(em, request)).toBeNull();
      });
      expect(await stored()).toBe(1);
    });

    it('does not limit repeated events of types without anti-spam', async () => {
      const { recipient, initiator } = await pair();
      for (const key of ['comment:1', 'comment:2', 'comment:3']) {
        await send({ recipient, type: 'comment_reply', initiator, data: {}, eventKey: key });
      }
      expect(await stored()).toBe(3);
    });
  });

  describe('anti-spam for follows', () => {
    it('creates one follow notification per initiator within 6 hours', async () => {
      const { recipient, initiator } = await pair();
      const start = new Date('2026-01-01T00:00:00Z').getTime();
      expect(await send(follow(recipient, initiator, 'follow:a', new Date(start)))).not.toBeNull();
      expect(
        await send(follow(recipient, initiator, 'follow:b', new Date(start + ANTI_SPAM_MS - 1000))),
      ).toBeNull();
      expect(await stored()).toBe(1);
    });

    it('creates another after 6 hours, and one from another initiator at once', async () => {
      const { recipient, initiator } = await pair();
      const other = await buildUser(t.orm);
      const start = new Date('2026-01-01T00:00:00Z').getTime();
      await send(follow(recipient, initiator, 'follow:a', new Date(start)));
      expect(await send(follow(recipient, other, 'follow:b', new Date(start + 1000)))).not.toBeNull();
      expect(
        await send(follow(recipient, initiator, 'follow:c', new Date(start + ANTI_SPAM_MS))),
      ).not.toBeNull();
      expect(await stored()).toBe(3);
    });

    it('holds within one batch', async () => {
      const { recipient, initiator } = await pair();
      const created = await inEm((em) =>
        notifyAll(em, [follow(recipient, initiator, 'follow:a'), follow(recipient, initiator, 'follow:b')]),
      );
      expect(created).toHaveLength(1);
      expect(await stored()).toBe(1);
    });
  });

  describe('votes (notifyVote)', () => {
    it('a positive vote shows the voter: initiator, username and avatar, with the scores', async () => {
      const { recipient, initiator: voter } = await pair();
      await vote(commentVote(recipient, voter, 'comment-1', 1));
      const [row] = await notificationsOf(t.orm, recipient);
      expect(row.initiator_user?.reference).toBe(voter.reference);
      expect(row.data).toEqual({
        slug: 'frieren',
        comment_reference: 'comment-1',
        user_score: 1,
        old_score: 3,
        new_score: 4,
        username: voter.username,
        avatar: 'https://cdn.test/avatars/i.jpg',
      });
    });

    it('a negative vote hides the voter: no initiator, username and avatar null', async () => {
      const { recipient, initiator: voter } = await pair();
      await vote(commentVote(recipient, voter, 'comment-1', -1));
      const [row] = await notificationsOf(t.orm, recipient);
      expect(row.initiator_user).toBeNull();
      expect(row.data).toMatchObject({
        user_score: -1,
        old_score: 3,
        new_score: 2,
        username: null,
        avatar: null,
      });
    });

    it('a new vote of 0 creates nothing', async () => {
      const { recipient, initiator: voter } = await pair();
      expect(await vote(commentVote(recipient, voter, 'comment-1', 0))).toBeNull();
      expect(await stored()).toBe(0);
    });

    it('a vote on one’s own item creates nothing, even a negative one', async () => {
      const { recipient } = await pair();
      expect(await vote(commentVote(recipient, recipient, 'comment-1', 1))).toBeNull();
      expect(await vote(commentVote(recipient, recipient, 'comment-1', -1))).toBeNull();
      expect(await stored()).toBe(0);
    });

    it('creates one notification per voter and item within 6 hours, whatever the sign', async () => {
      const { recipient, initiator: voter } = await pair();
      const start = new Date('2026-01-01T00:00:00Z').getTime();
      expect(await vote(commentVote(recipient, voter, 'comment-1', 1, new Date(start)))).not.toBeNull();
      expect(await vote(commentVote(recipient, voter, 'comment-1', -1, new Date(start + 1000)))).toBeNull();
      expect(await vote(commentVote(recipient, voter, 'comment-1', 1, new Date(start + 2000)))).toBeNull();
      expect(await stored()).toBe(1);
    });

    it('holds the window for negative votes too', async () => {
      const { recipient, initiator: voter } = await pair();
      const start = new Date('2026-01-01T00:00:00Z').getTime();
      expect(await vote(commentVote(recipient, voter, 'comment-1', -1, new Date(start)))).not.toBeNull();
      expect(await vote(commentVote(recipient, voter, 'comment-1', -1, new Date(start + 1000)))).toBeNull();
      expect(await stored()).toBe(1);
    });

    it('notifies about another item, another voter, or after 6 hours', async () => {
      const { recipient, initiator: voter } = await pair();
      const other = await buildUser(t.orm);
      const start = new Date('2026-01-01T00:00:00Z').getTime();
      await vote(commentVote(recipient, voter, 'comment-1', 1, new Date(start)));
      expect(
        await vote(commentVote(recipient, voter, 'comment-2', 1, new Date(start + 1000))),
      ).not.toBeNull();
      expect(
        await vote(commentVote(recipient, other, 'comment-1', 1, new Date(start + 2000))),
      ).not.toBeNull();
      expect(
        await vote(commentVote(recipient, voter, 'comment-1', 1, new Date(start + ANTI_SPAM_MS + 1000))),
      ).not.toBeNull();
      expect(await stored()).toBe(4);
    });

    it('keeps the window per type: a collection vote does not hide a comment vote', async () => {
      const { recipient, initiator: voter } = await pair();
      await vote({ ...commentVote(recipient, voter, 'item-1', 1), type: 'collection_vote' });
      expect(await vote(commentVote(recipient, voter, 'item-1', 1))).not.toBeNull();
    });
  });

  it('checks and writes a batch in two statements whatever its size', async () => {
    const initiator = await buildUser(t.orm);
    const recipients = await Promise.all(Array.from({ length: 12 }, () => buildUser(t.orm)));
    const em = t.orm.em.fork();
    const queries = await t.queries.count(() =>
      notifyAll(
        em,
        recipients.map((recipient, i) => follow(recipient, initiator, `follow:${i}`)),
      ),
    );
    expect(queries).toBe(2);
    expect(t.queries.last[1]).toMatch(/insert into notification/);
    expect(em.getUnitOfWork().getPersistStack().size).toBe(0);
    expect(await stored()).toBe(12);
  });

  it("looks earlier notifications up through indexes, never reading every one of the table's", async () => {
    const { recipient, initiator } = await pair();
    // Many older notifications of the recipient's, outside the anti-spam window.
    await t.orm.em.getConnection().execute(
      `insert into notification (reference, user_reference, notification_type, data, event_key, seen, created, updated)
       select gen_random_uuid(), ?, 'follow', '{}', 'follow:old-' || n, false, now() - interval '1 day', now()
         from generate_series(1, 5000) as n`,
      [recipient.reference],
    );
    await t.orm.em.getConnection().execute('analyze notification');
    const sent = await sentToPostgres(() => send(follow(recipient, initiator, 'follow:new')));
    const lookUp = sent.find((statement) => statement.includes('from notification where'));
    expect(lookUp).toBeDefined();
    const [{ 'QUERY PLAN': plan }] = await t.orm.em
      .getConnection()
      .execute<{ 'QUERY PLAN': unknown }[]>(`explain (format json) ${lookUp}`);
    const scans: string[] = [];
    const visit = (node: Record<string, unknown>) => {
      if (node['Relation Name'] === 'notification') scans.push(String(node['Node Type']));
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
    };
    visit((plan as { Plan: Record<string, unknown> }[])[0].Plan);
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.filter((scan) => scan === 'Seq Scan')).toEqual([]);
    expect(await stored()).toBe(5001);
  });
});
