import type { RestRoute } from '../rest/route';
import { uuidParam } from '../rest/schemas';
import {
  CLIENT_SEARCH_BODY,
  CREATE_CLIENT_BODY,
  TOKEN_EXCHANGE_BODY,
  TOKEN_REQUEST_BODY,
  UPDATE_CLIENT_BODY,
} from './client.inputs';

const clientParams = { client_reference: uuidParam };

/** Clients, the third-party token flow and token views (semantics §3.1, §3.2; contract #11, #12). */
export const clientRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/client',
    summary: 'Register a client',
    description:
      'Registers a third-party application (a client) owned by the caller, not yet verified, with a new secret. Names are unique per owner, ignoring case; an owner has at most 10 clients. Answers the Client with its secret.',
    auth: 'required',
    errors: [409],
    params: {},
    body: CREATE_CLIENT_BODY,
    rootField: 'createClient',
    document: `mutation CreateClient($input: CreateClientInput!) { createClient(input: $input) { ...ClientFields } }`,
  },
  {
    method: 'GET',
    path: '/client',
    summary: 'Your clients',
    description: "The caller's clients, oldest first.",
    auth: 'required',
    params: {},
    paged: true,
    rootField: 'clients',
    document: `query Clients($page: Int, $size: Int) {
        clients(page: $page, size: $size) { pagination { total pages page } list { ...ClientFields } }
      }`,
  },
  {
    method: 'POST',
    path: '/client/all',
    summary: 'Search all clients',
    description: 'Every client, or those whose name contains `query` (ignoring case); for admins.',
    auth: 'required',
    params: {},
    paged: true,
    body: CLIENT_SEARCH_BODY,
    rootField: 'allClients',
    document: `query AllClients($page: Int, $size: Int, $input: ClientSearchInput!) {
        allClients(page: $page, size: $size, input: $input) {
          pagination { total pages page } list { ...ClientFields }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/client/{client_reference}',
    summary: "A client's public record",
    description:
      'Any client by its reference, without its secret (`secret` is null); no authentication needed, e.g. for a consent page.',
    auth: 'none',
    params: clientParams,
    rootField: 'client',
    document: `query Client($client_reference: String!) { client(client_reference: $client_reference) { ...ClientFields } }`,
  },
  {
    method: 'GET',
    path: '/client/{client_reference}/full',
    summary: 'Your client with its secret',
    description: "One of the caller's own clients, with its secret.",
    auth: 'required',
    params: clientParams,
    rootField: 'clientFull',
    document: `query ClientFull($client_reference: String!) {
        clientFull(client_reference: $client_reference) { ...ClientFields }
      }`,
  },
  {
    contract: 11,
    method: 'DELETE',
    path: '/client/{client_reference}',
    summary: 'Delete a client',
    description:
      'Deletes a client for good, with its pending token requests and every token issued to it, which stop working at once. Its owner, or an admin, may. Answers the deleted Client.',
    auth: 'required',
    params: clientParams,
    rootField: 'deleteClient',
    document: `mutation DeleteClient($client_reference: String!) {
        deleteClient(client_reference: $client_reference) { ...ClientFields }
      }`,
  },
  {
    contract: 12,
    method: 'PUT',
    path: '/client/{client_reference}',
    summary: 'Update a client',
    description:
      "The owner changes a client's name, description or endpoint (null fields are kept); `revoke_secret: true` gives it a new secret, and the old one stops working at once. Answers the Client with its current secret.",
    auth: 'required',
    errors: [409],
    params: clientParams,
    body: UPDATE_CLIENT_BODY,
    rootField: 'updateClient',
    document: `mutation UpdateClient($client_reference: String!, $input: UpdateClientInput!) {
        updateClient(client_reference: $client_reference, input: $input) { ...ClientFields }
      }`,
  },
  {
    method: 'POST',
    path: '/client/{client_reference}/verify',
    summary: 'Verify a client',
    description: 'Marks a client as verified; for admins. Answers the Client.',
    auth: 'required',
    params: clientParams,
    rootField: 'verifyClient',
    document: `mutation VerifyClient($client_reference: String!) {
        verifyClient(client_reference: $client_reference) { ...ClientFields }
      }`,
  },
  {
    method: 'POST',
    path: '/auth/token/request/{client_reference}',
    summary: 'Consent to a client',
    description:
      "The caller grants a client the listed scopes: creates a token request, valid for 1 minute, and answers the client's redirect URL carrying the request's reference. Needs a first-party token.",
    auth: 'required',
    params: clientParams,
    body: TOKEN_REQUEST_BODY,
    rootField: 'createTokenRequest',
    document: `mutation CreateTokenRequest($client_reference: String!, $input: TokenRequestInput!) {
      createTokenRequest(client_reference: $client_reference, input: $input) { reference redirect_url expiration }
    }`,
  },
  {
    method: 'POST',
    path: '/auth/token',
    summary: 'Exchange a token request for a token',
    description:
      'A client trades a token request and its own secret for a third-party token of the user who consented, limited to the requested scopes; the request is used up. The user is notified.',
    auth: 'none',
    errors: [401],
    params: {},
    body: TOKEN_EXCHANGE_BODY,
    rootField: 'exchangeToken',
    document: `mutation ExchangeToken($input: TokenExchangeInput!) { exchangeToken(input: $input) { ...TokenResponseFields } }`,
  },
  {
    method: 'GET',
    path: '/auth/token/info',
    summary: 'The presented token',
    description:
      'The token this request carries: its scopes, creation, expiration, last use and, for a third-party token, its client.',
    auth: 'required',
    params: {},
    rootField: 'tokenInfo',
    document: `query TokenInfo { tokenInfo { ...TokenInfoFields } }`,
  },
  {
    method: 'GET',
    path: '/auth/token/thirdparty',
    summary: 'Your third-party tokens',
    description: "The unexpired tokens the caller's consents gave to clients, newest first.",
    auth: 'required',
    params: {},
    paged: true,
    rootField: 'thirdPartyTokens',
    document: `query ThirdPartyTokens($page: Int, $size: Int) {
        thirdPartyTokens(page: $page, size: $size) { pagination { total pages page } list { ...TokenInfoFields } }
      }`,
  },
];
