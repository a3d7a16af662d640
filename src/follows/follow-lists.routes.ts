import { READ_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';

const userList = (direction: 'followers' | 'following', summary: string, description: string): RestRoute => ({
  method: 'GET',
  path: `/follow/{username}/${direction}`,
  summary,
  description,
  auth: 'optional',
  params: { username: slugParam },
  paged: true,
  rootField: direction,
  document: `query ${direction === 'followers' ? 'Followers' : 'Following'}($username: String!, $page: Int, $size: Int) {
      ${direction}(username: $username, page: $page, size: $size) {
        pagination { total pages page }
        list { ...UserFields is_followed }
      }
    }`,
});

/** Who follows whom, by profile and by title (pages.md "User profile", "Anime page", "Manga page"). */
export const followListRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/follow/{username}/stats',
    summary: "A user's follow figures",
    description:
      'How many users follow the user, and how many the user follows (deleted accounts not counted).',
    auth: 'none',
    params: { username: slugParam },
    rootField: 'followStats',
    document: `query FollowStats($username: String!) { followStats(username: $username) { followers following } }`,
  },
  userList(
    'followers',
    "A user's followers",
    'The users who follow a user, the latest first, each with `is_followed` for the caller.',
  ),
  userList(
    'following',
    'The users a user follows',
    'The users a user follows, the latest first, each with `is_followed` for the caller.',
  ),
  {
    method: 'GET',
    path: '/watch/{slug}/following',
    summary: 'Who you follow has this anime in their list',
    description:
      'The users the caller follows who have a watch entry for the anime, each with that entry; the best scored first.',
    auth: 'required',
    params: { slug: slugParam },
    paged: true,
    rootField: 'followingWatchers',
    document: `query FollowingWatchers($slug: String!, $page: Int, $size: Int) {
        followingWatchers(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { ...FollowedWatcherFields }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/read/{content_type}/{slug}/following',
    summary: 'Who you follow has this manga or novel in their list',
    description:
      'The users the caller follows who have a read entry for the manga or novel, each with that entry; the best scored first.',
    auth: 'required',
    params: { content_type: oneOf(READ_CONTENT_TYPES), slug: slugParam },
    paged: true,
    rootField: 'followingReaders',
    document: `query FollowingReaders($content_type: ReadContentType!, $slug: String!, $page: Int, $size: Int) {
        followingReaders(content_type: $content_type, slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { ...FollowedReaderFields }
        }
      }`,
  },
];
