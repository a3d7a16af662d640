import { documentOf } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { uuidParam } from '../rest/schemas';
import { TokenResponseFields, UserFields } from './accounts.fragments';
import { ACTIVATION_BODY, LOGIN_BODY, SIGNUP_BODY } from './accounts.types';

/** Accounts and first-party tokens (semantics §3.1) and #1. */
export const accountRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/auth/signup',
    auth: 'none',
    errors: [403, 409],
    params: {},
    body: SIGNUP_BODY,
    rootField: 'signup',
    document: documentOf(
      `mutation Signup($input: SignupInput!) { signup(input: $input) { ...TokenResponseFields } }`,
      TokenResponseFields,
    ),
  },
  {
    method: 'POST',
    path: '/auth/login',
    auth: 'none',
    errors: [401, 404],
    params: {},
    body: LOGIN_BODY,
    rootField: 'login',
    document: documentOf(
      `mutation Login($input: LoginInput!) { login(input: $input) { ...TokenResponseFields } }`,
      TokenResponseFields,
    ),
  },
  {
    method: 'POST',
    path: '/auth/activation',
    auth: 'none',
    params: {},
    body: ACTIVATION_BODY,
    rootField: 'activate',
    document: documentOf(
      `mutation Activate($input: ActivationInput!) { activate(input: $input) { ...TokenResponseFields } }`,
      TokenResponseFields,
    ),
  },
  {
    // No body: one sent anyway is not even parsed (§2 #1, §7.5).
    method: 'POST',
    path: '/auth/activation/resend',
    contract: 1,
    auth: 'required',
    params: {},
    rootField: 'resendActivation',
    document: documentOf(`mutation ResendActivation { resendActivation { ...UserFields } }`, UserFields),
  },
  {
    method: 'DELETE',
    path: '/auth/token/{token_reference}',
    auth: 'required',
    params: { token_reference: uuidParam },
    rootField: 'deleteToken',
    document: `mutation DeleteToken($token_reference: String!) {
      deleteToken(token_reference: $token_reference) { success }
    }`,
  },
];
