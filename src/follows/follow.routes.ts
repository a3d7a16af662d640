import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';

const params = { username: slugParam };

/** PUT, DELETE and GET /follow/{username} (semantics §3.9); authentication required. */
export const followRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: '/follow/{username}',
    summary: 'Follow a user',
    description: 'The caller follows a user, who is notified. Answers `{follow: true}`.',
    auth: 'required',
    errors: [409],
    params,
    rootField: 'followUser',
    document: `mutation FollowUser($username: String!) { followUser(username: $username) { follow } }`,
  },
  {
    method: 'DELETE',
    path: '/follow/{username}',
    summary: 'Unfollow a user',
    description: 'The caller stops following a user. Answers `{follow: false}`.',
    auth: 'required',
    params,
    rootField: 'unfollowUser',
    document: `mutation UnfollowUser($username: String!) { unfollowUser(username: $username) { follow } }`,
  },
  {
    method: 'GET',
    path: '/follow/{username}',
    summary: 'Whether you follow a user',
    description: 'Answers `{follow: true}` when the caller follows the user, `{follow: false}` otherwise.',
    auth: 'required',
    params,
    rootField: 'followStatus',
    document: `query FollowStatus($username: String!) { followStatus(username: $username) { follow } }`,
  },
];
