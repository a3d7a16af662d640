import { buildManga, buildToken, buildUser } from '../factories';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

// Bursts of concurrent requests: slow on a loaded machine, bounded all the same.
jest.setTimeout(120_000);

const t = useTestApp();

/**
 * Two hides of one comment at once (a double click, or its author and an admin): one
 * hides it, the other answers `comment:already_hidden`, and the counts move once.
 */
describe('simultaneous hides of one comment', () => {
  it('hide it once: one answer 200, the other comment:already_hidden, every count exact', async () => {
    const manga = await buildManga(t.orm);
    const author = await buildUser(t.orm);
    const admin = await buildUser(t.orm, { role: 'admin' });
    const [authorToken, adminToken] = [await buildToken(t.orm, author), await buildToken(t.orm, admin)];
    const write = async (parent?: string) => {
      const res = await rest(
        t.app,
        'PUT',
        `/comments/manga/${manga.slug}`,
        { text: 'A comment', parent },
        {
          token: authorToken,
        },
      );
      expect(res.status).toBe(200);
      return res.body.reference as string;
    };
    const root = await write();
    const answers: string[] = [];
    const replies: string[] = [];
    for (let round = 0; round < 8; round += 1) {
      const reply = await write(round % 2 === 0 ? root : (replies.at(-1) ?? root));
      replies.push(reply);
      const both = await Promise.all([
        rest(t.app, 'DELETE', `/comments/${reply}`, undefined, { token: authorToken }),
        rest(t.app, 'DELETE', `/comments/${reply}`, undefined, { token: adminToken }),
      ]);
      answers.push(
        both
          .map((res) => (res.status === 200 ? 'hidden' : res.body.code))
          .sort()
          .join(' '),
      );
    }
    expect(answers).toEqual(Array(8).fill('comment:already_hidden hidden'));
    const db = t.orm.em.getConnection();
    const [{ total_replies }] = await db.execute<{ total_replies: number }[]>(
      'select total_replies from comment where reference = ?',
      [root],
    );
    const [{ comments_count }] = await db.execute<{ comments_count: number }[]>(
      'select comments_count from manga where reference = ?',
      [manga.reference],
    );
    // Every reply was hidden: none counts, the root alone is left.
    expect({ total_replies, comments_count }).toEqual({ total_replies: 0, comments_count: 1 });
  });
});
