import type { RestRoute } from '../rest/route';
import { USER_SEARCH_SPEC } from './user-search.resolver';
import { slugParam, uuidParam } from '../rest/schemas';
import { ACTIVATION_BODY, LOGIN_BODY, SIGNUP_BODY } from './accounts.types';

/** Accounts and first-party tokens (semantics §3.1) and #1. */
export const accountRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/auth/signup',
    summary: 'Sign up',
    description:
      'Creates an account, not activated until its email address is confirmed, emails its activation link and answers a first-party token, so the new user is logged in at once. Username and email must be free, ignoring case.',
    auth: 'none',
    errors: [403, 409],
    params: {},
    body: SIGNUP_BODY,
    rootField: 'signup',
    document: `mutation Signup($input: SignupInput!) { signup(input: $input) { ...TokenResponseFields } }`,
  },
  {
    method: 'POST',
    path: '/auth/login',
    summary: 'Log in',
    description:
      'Checks the password of the account found by `email`, or else by `username`, and answers a first-party token: send its `secret` as the `auth` header (or cookie) of later requests.',
    auth: 'none',
    errors: [401, 404],
    params: {},
    body: LOGIN_BODY,
    rootField: 'login',
    document: `mutation Login($input: LoginInput!) { login(input: $input) { ...TokenResponseFields } }`,
  },
  {
    method: 'POST',
    path: '/auth/activation',
    summary: 'Activate an account',
    description:
      "Confirms an account's email address with the token of its activation link; a not yet activated account becomes a `user`. Answers a first-party token.",
    auth: 'none',
    params: {},
    body: ACTIVATION_BODY,
    rootField: 'activate',
    document: `mutation Activate($input: ActivationInput!) { activate(input: $input) { ...TokenResponseFields } }`,
  },
  {
    // No body: one sent anyway is not even parsed (§2 #1, §7.5).
    method: 'POST',
    path: '/auth/activation/resend',
    summary: 'Resend the activation link',
    description:
      "Replaces the caller's activation link with a new one, valid for 3 hours, and emails it again. Refused once the address is confirmed, and while the current link is still valid. Answers the caller's User.",
    contract: 1,
    auth: 'required',
    params: {},
    rootField: 'resendActivation',
    document: `mutation ResendActivation { resendActivation { ...UserFields } }`,
  },
  {
    method: 'DELETE',
    path: '/auth/token/{token_reference}',
    summary: 'Revoke a token',
    description:
      "Deletes one of the caller's tokens (a logout, or an app's access withdrawn); it stops working at once. Needs a first-party token.",
    auth: 'required',
    params: { token_reference: uuidParam },
    rootField: 'deleteToken',
    document: `mutation DeleteToken($token_reference: String!) {
      deleteToken(token_reference: $token_reference) { success }
    }`,
  },
  {
    method: 'GET',
    path: '/user/me',
    summary: 'The signed-in account',
    description:
      'The account the token belongs to, with its email address: a frontend checks its session with it. Third-party tokens need `read:user-details`.',
    auth: 'required',
    params: {},
    rootField: 'me',
    document: `query Me { me { ...OwnAccountFields } }`,
  },
  {
    method: 'GET',
    path: '/user/{username}',
    summary: "A user's profile",
    description:
      'A user, found by username ignoring case, and whether the caller follows them (`is_followed`: false when anonymous or on one’s own profile). Third-party tokens need `read:follow`.',
    auth: 'optional',
    params: { username: slugParam },
    rootField: 'user',
    document: `query User($username: String!) { user(username: $username) { ...UserFields is_followed } }`,
  },
  {
    method: 'POST',
    path: '/user/list',
    summary: 'Search users',
    description:
      'Up to 15 users whose username contains the `query` or comes close to it (ignoring case), the most recently active first; deleted and banned accounts are left out. A plain array; `page` and `size` are ignored.',
    auth: 'none',
    params: {},
    body: USER_SEARCH_SPEC,
    rootField: 'users',
    document: `query Users($input: UserSearchInput!) { users(input: $input) { ...UserFields } }`,
  },
  {
    method: 'GET',
    path: '/user/{username}/activity',
    summary: "A user's activity by day",
    description:
      "A user's actions per UTC day over the 365 days ending today, oldest first: comments, list and collection writes, articles, and follows and favourites once per target a day. `[]` when there is none.",
    auth: 'none',
    params: { username: slugParam },
    rootField: 'userActivity',
    document: `query UserActivity($username: String!) { userActivity(username: $username) { timestamp actions } }`,
  },
];
