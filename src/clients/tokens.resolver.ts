import { Reference } from '@mikro-orm/core';
import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Authorized,
  Ctx,
  FieldResolver,
  Info,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { TokenResponse } from '../accounts/accounts.types';
import type { AuthToken } from '../accounts/auth-token.entity';
import { PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { authenticate } from './client-caller';
import { Client } from './client.entity';
import { TokenExchangeInput, TokenRequestInput } from './client.inputs';
import { pathReference } from '../common/validation/uuid';
import { TokenInfo, TokenInfoPage } from './token-info.types';
import { TokenRequest } from './token-request.entity';
import { createTokenRequest, exchangeToken, listThirdPartyTokens, redirectUrl } from './token-flow.service';

/** The third-party token flow (semantics §3.2) and the token views of §3.1. */
@Resolver(() => TokenRequest)
export class TokenFlowResolver {
  @Authorized()
  @Mutation(() => TokenRequest, {
    description:
      'POST /auth/token/request/{client_reference}: the caller (first-party token only) consents to a ' +
      'client; the request is exchanged within a minute.',
  })
  async createTokenRequest(
    @Arg('client_reference', () => String) reference: string,
    @Arg('input', () => TokenRequestInput) input: TokenRequestInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<TokenRequest> {
    const viewer = await authenticate(ctx, info);
    return createTokenRequest(ctx.em, viewer, pathReference(reference, 'client_reference'), input);
  }

  @Mutation(() => TokenResponse, {
    description: 'POST /auth/token: exchanges a token request and the client secret for a third-party token.',
  })
  exchangeToken(
    @Arg('input', () => TokenExchangeInput) input: TokenExchangeInput,
    @Ctx() ctx: RequestContext,
  ): Promise<TokenResponse> {
    return exchangeToken(ctx.em, input, ctx.accounts.clientSecrets);
  }

  @Authorized()
  @Query(() => TokenInfo, { description: 'GET /auth/token/info: the presented token.' })
  async tokenInfo(@Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo): Promise<AuthToken> {
    // The presented token itself, as the authentication loaded it (with its client).
    return (await authenticate(ctx, info)).token;
  }

  @Authorized()
  @Query(() => TokenInfoPage, {
    description: "GET /auth/token/thirdparty: the caller's unexpired third-party tokens, newest first.",
  })
  async thirdPartyTokens(
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<TokenInfoPage> {
    return listThirdPartyTokens(ctx.em, await authenticate(ctx, info), page);
  }

  @FieldResolver(() => String, { description: '`<client endpoint>?reference=<request reference>`.' })
  async redirect_url(@Root() request: TokenRequest): Promise<string> {
    return redirectUrl(await Reference.create(request.client).loadOrFail(), request);
  }
}

@Resolver(() => TokenInfo)
export class TokenInfoResolver {
  @FieldResolver(() => Client, {
    nullable: true,
    description: 'The client of a third-party token; its `secret` follows the owner rule.',
  })
  async client(@Root() token: TokenInfo): Promise<Client | null> {
    return token.client ? Reference.create(token.client).loadOrFail() : null;
  }
}
