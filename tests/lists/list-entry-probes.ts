import { ActionRecord } from '../../src/accounts/action-record.entity';
import { User } from '../../src/accounts/user.entity';
import { buildThirdPartyToken } from '../factories';
import type { CallOptions } from '../setup/clients';
import type { TestApp } from '../setup/harness';

/**
 * What the watch and read entry tests look at besides the response: a third-party token,
 * the user's row and the user's action records. `t.orm` is read at call time, because
 * `useTestApp` fills its handle only once the test file's hooks run.
 */
export function listEntryProbes(t: TestApp) {
  return {
    /** A third-party token of `user` holding `scope`. */
    thirdParty: async (user: User, scope: string[]): Promise<CallOptions> => ({
      token: await buildThirdPartyToken(t.orm, user, scope),
    }),
    storedUser: (user: User) => t.orm.em.fork().findOneOrFail(User, { reference: user.reference }),
    /**
     * The kinds of the statements `write` sends: the token look-up, then in the
     * transaction the list lock with the title-and-entry look-up, and the write (with
     * its native score and action record) with the title read back when its score moved.
     */
    statementKinds: (write: () => Promise<unknown>): Promise<string[]> =>
      t.queries.kinds(write, (statement) => {
        if (statement.startsWith('update "user" set lists_updated')) return 'lock';
        if (/^select .* left join "(watch|read)_entry" e/s.test(statement)) return 'find';
        if (statement.startsWith('with written as')) return 'write';
        if (/^select .* where t\.reference = /s.test(statement)) return 'title';
        return undefined;
      }),
    /** The user's action records, oldest first, as `[type, target]`. */
    actions: async (user: User) =>
      (await t.orm.em.fork().find(ActionRecord, { user: user.reference }, { orderBy: { id: 'asc' } })).map(
        (action) => [action.type, action.target],
      ),
  };
}

/** Asserts a Date within [from, to] (whole-second tolerance for values served as seconds). */
export function expectBetween(at: Date | null | undefined, from: number, to: number) {
  expect(at).toBeInstanceOf(Date);
  expect(at!.getTime()).toBeGreaterThanOrEqual(from);
  expect(at!.getTime()).toBeLessThanOrEqual(to);
}
