import type { ListQuery } from '../common/pagination/paged-query';
import { concatSql, sql, type SqlFragment } from '../db/sql';

/** Whose follows a list shows: the user's followers, or the users the user follows. */
export type FollowDirection = 'followers' | 'following';

/** For each direction: the column naming the listed user, and the one naming the profile's user. */
const COLUMNS: Record<FollowDirection, { listed: string; of: string }> = {
  followers: { listed: 'follower_reference', of: 'followed_reference' },
  following: { listed: 'followed_reference', of: 'follower_reference' },
};

/**
 * A user's (`user`: SQL of the reference) followers or following as a list of users
 * (pages.md "User profile"): deleted accounts left out; the latest follow first, then
 * follow reference.
 */
export function followListQuery(direction: FollowDirection, user: SqlFragment): ListQuery {
  const { listed, of } = COLUMNS[direction];
  return {
    reference: 'u.reference',
    from: `follow f join "user" u on u.reference = f.${listed}`,
    where: concatSql(`f.${of} = `, user, sql(" and u.role <> 'deleted'")),
    orderBy: sql('f.created desc, f.reference'),
  };
}

/**
 * A user's follow figures in SQL (`followed`, `follower`: SQL of the user's reference,
 * twice for the placeholders), counted as the lists count: deleted accounts left out.
 */
export const followStatsSql = (followed: string, follower: string): string =>
  `select
     (select count(*)::int from follow f join "user" u on u.reference = f.follower_reference
       where f.followed_reference = ${followed} and u.role <> 'deleted') as followers,
     (select count(*)::int from follow f join "user" u on u.reference = f.followed_reference
       where f.follower_reference = ${follower} and u.role <> 'deleted') as following`;
