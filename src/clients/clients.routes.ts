import { documentOf } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { uuidParam } from '../rest/schemas';
import {
  CLIENT_SEARCH_BODY,
  CREATE_CLIENT_BODY,
  TOKEN_EXCHANGE_BODY,
  TOKEN_REQUEST_BODY,
  UPDATE_CLIENT_BODY,
} from './client.inputs';
import { ClientFields, TokenInfoFields, TokenResponseFields } from './clients.fragments';

const clientParams = { client_reference: uuidParam };

/** Clients, the third-party token flow and token views (semantics §3.1, §3.2; contract #11, #12). */
export const clientRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/client',
    auth: 'required',
    errors: [409],
    params: {},
    body: CREATE_CLIENT_BODY,
    rootField: 'createClient',
    document: documentOf(
      `mutation CreateClient($input: CreateClientInput!) { createClient(input: $input) { ...ClientFields } }`,
      ClientFields,
    ),
  },
  {
    method: 'GET',
    path: '/client',
    auth: 'required',
    params: {},
    paged: true,
    rootField: 'clients',
    document: documentOf(
      `query Clients($page: Int, $size: Int) {
        clients(page: $page, size: $size) { pagination { total pages page } list { ...ClientFields } }
      }`,
      ClientFields,
    ),
  },
  {
    method: 'POST',
    path: '/client/all',
    auth: 'required',
    params: {},
    paged: true,
    body: CLIENT_SEARCH_BODY,
    rootField: 'allClients',
    document: documentOf(
      `query AllClients($page: Int, $size: Int, $input: ClientSearchInput!) {
        allClients(page: $page, size: $size, input: $input) {
          pagination { total pages page } list { ...ClientFields }
        }
      }`,
      ClientFields,
    ),
  },
  {
    method: 'GET',
    path: '/client/{client_reference}',
    auth: 'none',
    params: clientParams,
    rootField: 'client',
    document: documentOf(
      `query Client($client_reference: String!) { client(client_reference: $client_reference) { ...ClientFields } }`,
      ClientFields,
    ),
  },
  {
    method: 'GET',
    path: '/client/{client_reference}/full',
    auth: 'required',
    params: clientParams,
    rootField: 'clientFull',
    document: documentOf(
      `query ClientFull($client_reference: String!) {
        clientFull(client_reference: $client_reference) { ...ClientFields }
      }`,
      ClientFields,
    ),
  },
  {
    contract: 11,
    method: 'DELETE',
    path: '/client/{client_reference}',
    auth: 'required',
    params: clientParams,
    rootField: 'deleteClient',
    document: documentOf(
      `mutation DeleteClient($client_reference: String!) {
        deleteClient(client_reference: $client_reference) { ...ClientFields }
      }`,
      ClientFields,
    ),
  },
  {
    contract: 12,
    method: 'PUT',
    path: '/client/{client_reference}',
    auth: 'required',
    errors: [409],
    params: clientParams,
    body: UPDATE_CLIENT_BODY,
    rootField: 'updateClient',
    document: documentOf(
      `mutation UpdateClient($client_reference: String!, $input: UpdateClientInput!) {
        updateClient(client_reference: $client_reference, input: $input) { ...ClientFields }
      }`,
      ClientFields,
    ),
  },
  {
    method: 'POST',
    path: '/client/{client_reference}/verify',
    auth: 'required',
    params: clientParams,
    rootField: 'verifyClient',
    document: documentOf(
      `mutation VerifyClient($client_reference: String!) {
        verifyClient(client_reference: $client_reference) { ...ClientFields }
      }`,
      ClientFields,
    ),
  },
  {
    method: 'POST',
    path: '/auth/token/request/{client_reference}',
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
    auth: 'none',
    errors: [401],
    params: {},
    body: TOKEN_EXCHANGE_BODY,
    rootField: 'exchangeToken',
    document: documentOf(
      `mutation ExchangeToken($input: TokenExchangeInput!) { exchangeToken(input: $input) { ...TokenResponseFields } }`,
      TokenResponseFields,
    ),
  },
  {
    method: 'GET',
    path: '/auth/token/info',
    auth: 'required',
    params: {},
    rootField: 'tokenInfo',
    document: documentOf(`query TokenInfo { tokenInfo { ...TokenInfoFields } }`, TokenInfoFields),
  },
  {
    method: 'GET',
    path: '/auth/token/thirdparty',
    auth: 'required',
    params: {},
    paged: true,
    rootField: 'thirdPartyTokens',
    document: documentOf(
      `query ThirdPartyTokens($page: Int, $size: Int) {
        thirdPartyTokens(page: $page, size: $size) { pagination { total pages page } list { ...TokenInfoFields } }
      }`,
      TokenInfoFields,
    ),
  },
];
