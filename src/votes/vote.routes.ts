import { VOTE_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';
import { VOTE_BODY } from './vote.types';

const voteParams = { content_type: oneOf(VOTE_CONTENT_TYPES), slug: slugParam };

/** Votes (semantics §3.6). */
export const voteRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: '/vote/{content_type}/{slug}',
    summary: 'Vote on a collection, comment or article',
    description:
      "Sets the caller's vote (-1, 0 or 1) on a collection, comment or article, whose `vote_score` becomes the sum of its votes.",
    auth: 'required',
    params: voteParams,
    body: VOTE_BODY,
    rootField: 'setVote',
    document: `mutation SetVote($content_type: VoteContentType!, $slug: String!, $input: VoteInput!) {
      setVote(content_type: $content_type, slug: $slug, input: $input) { score }
    }`,
  },
  {
    method: 'GET',
    path: '/vote/{content_type}/{slug}',
    summary: 'Your vote on a collection, comment or article',
    description: "The caller's vote on a collection, comment or article.",
    auth: 'required',
    params: voteParams,
    rootField: 'vote',
    document: `query Vote($content_type: VoteContentType!, $slug: String!) {
      vote(content_type: $content_type, slug: $slug) { score }
    }`,
  },
];
